"""KafkaApis: one handler per API key, turning decoded requests into responses.

Handlers run on the event loop and never block on the network: a request that must wait
(a long-poll fetch) hands a callback to the purgatory and returns. An API is advertised
in ApiVersions exactly when it has a handler here (see protocol/apis.py for the ranges).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import shutil
import time
from collections.abc import Awaitable, Callable, Hashable, Iterable, Mapping
from concurrent.futures import Executor
from typing import Any, TypeVar, cast
from uuid import UUID

from josefk.controller.controller import KafkaController
from josefk.controller.controller_channel import (
    from_update_metadata,
    states_from_leader_and_isr,
    stop_replica_partitions,
)
from josefk.controller.controller_events import ControllerEventKind as Event
from josefk.controller.controller_events import ControllerEventManager
from josefk.coordinator.authorization import ALLOW_ALL, Authorizer, operations_bits
from josefk.coordinator.producer_id_manager import reserve_block as reserve_producer_id_block
from josefk.log.config import TOPIC_CONFIG_NAMES, LogConfig
from josefk.log.config import config_type as topic_config_type
from josefk.log.log import AppendOrigin
from josefk.protocol import legacy, zero_copy
from josefk.protocol.acl import CLUSTER_NAME, AclOperation, ResourceType
from josefk.protocol.apis import ApiKey, ApiVersions
from josefk.protocol.compression import UnsupportedCodecError
from josefk.protocol.control_records import encode_end_txn_marker
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.messages.codec import ZERO_UUID
from josefk.protocol.messages.generated.allocate_producer_ids_response import AllocateProducerIdsResponse
from josefk.protocol.messages.generated.alter_configs_response import AlterConfigsResourceResponse, AlterConfigsResponse
from josefk.protocol.messages.generated.alter_partition_reassignments_response import (
    AlterPartitionReassignmentsResponse,
    ReassignablePartitionResponse,
    ReassignableTopicResponse,
)
from josefk.protocol.messages.generated.alter_partition_response import AlterPartitionResponse, TopicData
from josefk.protocol.messages.generated.alter_partition_response import PartitionData as AlterPartitionData
from josefk.protocol.messages.generated.alter_replica_log_dirs_response import (
    AlterReplicaLogDirPartitionResult,
    AlterReplicaLogDirsResponse,
    AlterReplicaLogDirTopicResult,
)
from josefk.protocol.messages.generated.api_versions_response import (
    ApiVersion,
    ApiVersionsResponse,
    FinalizedFeatureKey,
)
from josefk.protocol.messages.generated.controlled_shutdown_response import (
    ControlledShutdownResponse,
    RemainingPartition,
)
from josefk.protocol.messages.generated.create_partitions_response import (
    CreatePartitionsResponse,
    CreatePartitionsTopicResult,
)
from josefk.protocol.messages.generated.create_topics_response import (
    CreatableTopicConfigs,
    CreatableTopicResult,
    CreateTopicsResponse,
)
from josefk.protocol.messages.generated.delete_records_response import (
    DeleteRecordsPartitionResult,
    DeleteRecordsResponse,
    DeleteRecordsTopicResult,
)
from josefk.protocol.messages.generated.delete_topics_response import DeletableTopicResult, DeleteTopicsResponse
from josefk.protocol.messages.generated.describe_cluster_response import (
    DescribeClusterBroker,
    DescribeClusterResponse,
)
from josefk.protocol.messages.generated.describe_configs_response import (
    DescribeConfigsResourceResult,
    DescribeConfigsResponse,
    DescribeConfigsResult,
    DescribeConfigsSynonym,
)
from josefk.protocol.messages.generated.describe_log_dirs_response import (
    DescribeLogDirsPartition,
    DescribeLogDirsResponse,
    DescribeLogDirsResult,
    DescribeLogDirsTopic,
)
from josefk.protocol.messages.generated.describe_producers_response import (
    DescribeProducersResponse,
    ProducerState,
    TopicResponse,
)
from josefk.protocol.messages.generated.describe_producers_response import (
    PartitionResponse as ProducersPartitionResponse,
)
from josefk.protocol.messages.generated.elect_leaders_response import ElectLeadersResponse, ReplicaElectionResult
from josefk.protocol.messages.generated.elect_leaders_response import PartitionResult as ElectionPartitionResult
from josefk.protocol.messages.generated.fetch_response import (
    AbortedTransaction,
    EpochEndOffset,
    FetchableTopicResponse,
    FetchResponse,
    PartitionData,
)
from josefk.protocol.messages.generated.incremental_alter_configs_response import (
    AlterConfigsResourceResponse as IncrementalAlterConfigsResourceResponse,
)
from josefk.protocol.messages.generated.incremental_alter_configs_response import IncrementalAlterConfigsResponse
from josefk.protocol.messages.generated.leader_and_isr_response import (
    LeaderAndIsrPartitionError,
    LeaderAndIsrResponse,
    LeaderAndIsrTopicError,
)
from josefk.protocol.messages.generated.list_offsets_response import (
    ListOffsetsPartitionResponse,
    ListOffsetsResponse,
    ListOffsetsTopicResponse,
)
from josefk.protocol.messages.generated.list_partition_reassignments_response import (
    ListPartitionReassignmentsResponse,
    OngoingPartitionReassignment,
    OngoingTopicReassignment,
)
from josefk.protocol.messages.generated.metadata_response import (
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
)
from josefk.protocol.messages.generated.offset_for_leader_epoch_response import (
    EpochEndOffset as LeaderEpochEndOffset,
)
from josefk.protocol.messages.generated.offset_for_leader_epoch_response import (
    OffsetForLeaderEpochResponse,
    OffsetForLeaderTopicResult,
)
from josefk.protocol.messages.generated.stop_replica_response import StopReplicaPartitionError, StopReplicaResponse
from josefk.protocol.messages.generated.update_features_response import (
    UpdatableFeatureResult,
    UpdateFeaturesResponse,
)
from josefk.protocol.messages.generated.update_metadata_response import UpdateMetadataResponse
from josefk.protocol.messages.generated.write_txn_markers_response import (
    WritableTxnMarkerPartitionResult,
    WritableTxnMarkerResult,
    WritableTxnMarkerTopicResult,
    WriteTxnMarkersResponse,
)
from josefk.protocol.produce_response import PartitionResult, encode_produce_response
from josefk.protocol.records import CorruptRecordError, first_batch_is_transactional, read_header
from josefk.replication.fetch_session import (
    FINAL_EPOCH,
    INVALID_SESSION_ID,
    FetchManager,
    FetchSessionCache,
    PartitionRequest,
    PartitionResponse,
)
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.partition import FetchIsolation
from josefk.replication.replica_manager import FetchPartition, FetchResult, ReplicaManager, TopicPartition
from josefk.replication.replication_quota import UNBOUNDED_QUOTA
from josefk.server import client_metrics_configs
from josefk.server.config import APPLIED_DYNAMIC_KEYS, KEYS, SOURCE_DEFAULT_CONFIG, KafkaConfig, default_value
from josefk.server.config import config_type as broker_config_type
from josefk.server.quotas.client_quota_manager import ControllerMutationQuota, QuotaManagers
from josefk.server.quotas.throttler import QuotaThrottler
from josefk.server.request_channel import Request
from josefk.utils.java_format import hashed_map_order, java_string_hash
from josefk.zk.admin_zk_client import TopicAdmin, validate_topic_name
from josefk.zk.feature_znode import (
    SAFE_DOWNGRADE,
    UNKNOWN_UPGRADE,
    UNSAFE_DOWNGRADE,
    UPGRADE,
    FeatureUpdate,
    InvalidFeatureUpdate,
)
from josefk.zk.zk_data import (
    DEFAULT_BROKER_ENTITY,
    BrokerEpoch,
    BrokerInfo,
    IsrRequest,
    IsrResult,
    LeaderAndIsrResult,
)

log = logging.getLogger(__name__)
# Distinct Metadata requests whose encoded responses are kept (see KafkaApis._metadata_payloads).
_METADATA_PAYLOADS = 64
# How long a Metadata request waits for the controller's first UpdateMetadata after start-up.
FIRST_METADATA_WAIT_S = 10.0

INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state"})
Handler = Callable[[Request], None]
TxnMarkersWritten = Callable[[int, bool, list[tuple[str, int]]], None]
T = TypeVar("T")

# DescribeConfigs resource types (Kafka's ConfigResource.Type).
RESOURCE_TOPIC = 2
RESOURCE_BROKER = 4
RESOURCE_BROKER_LOGGER = 8
RESOURCE_CLIENT_METRICS = 16
# Errors.message() of the authorization errors, which DescribeConfigs answers with.
_AUTH_MESSAGES = {ErrorCode.TOPIC_AUTHORIZATION_FAILED: "Topic authorization failed.",
                  ErrorCode.CLUSTER_AUTHORIZATION_FAILED: "Cluster authorization failed."}
_NOT_CONTROLLER = "This is not the correct controller for this cluster."
# DescribeConfigs v3+ config_type: Kafka's DescribeConfigsResponse.ConfigType ids (UNKNOWN is 0).
CONFIG_TYPE_IDS = {"BOOLEAN": 1, "STRING": 2, "INT": 3, "SHORT": 4, "LONG": 5, "DOUBLE": 6, "LIST": 7, "CLASS": 8,
                   "PASSWORD": 9}
# The first version of each controller request that carries the broker epoch (KIP-380).
_BROKER_EPOCH_SINCE = {ApiKey.LeaderAndIsr: 2, ApiKey.UpdateMetadata: 5, ApiKey.StopReplica: 1}
# IncrementalAlterConfigs operations.
OP_SET, OP_DELETE, OP_APPEND, OP_SUBTRACT = 0, 1, 2, 3
# Produce errors Kafka answers without an error_message: its LogAppendResult carries a message
# only for a RecordValidationException (per-record INVALID_RECORD / INVALID_TIMESTAMP); a batch
# over max.message.bytes or failing its CRC, or a transactional batch outside its transaction,
# is thrown plain, so the message is null.
_PRODUCE_ERRORS_WITHOUT_MESSAGE = frozenset({ErrorCode.MESSAGE_TOO_LARGE, ErrorCode.RECORD_LIST_TOO_LARGE,
                                             ErrorCode.CORRUPT_MESSAGE, ErrorCode.INVALID_TXN_STATE})
# A verification the coordinator could not answer: Kafka's ReplicaManager answers the produce
# NOT_ENOUGH_REPLICAS, which every producer retries without refreshing its metadata.
_PRODUCE_VERIFICATION_ERRORS = dict.fromkeys(
    (ErrorCode.CONCURRENT_TRANSACTIONS, ErrorCode.NETWORK_EXCEPTION, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
     ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.NOT_COORDINATOR), ErrorCode.NOT_ENOUGH_REPLICAS)
_MIXED_PRODUCERS = (-1, -1)  # transactional batches of several producers in one produce request
# An (Incremental)AlterConfigs resource's answer: error, message, resource type and name.
_AlterResult = tuple[int, str | None, int, str]


def _java_split(text: str) -> list[str]:
    """Java's String.split(",") for a list config's items, an empty string being no items."""
    parts = text.split(",") if text else []
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _now_ms() -> int:
    return int(time.time() * 1000)


def _list_offsets_partition(version: int, index: int, error: int, offset: int, timestamp: int,
                            epoch: int) -> ListOffsetsPartitionResponse:
    """One ListOffsets answer with what its version carries: v0 a list of offsets (none for
    -1), v1+ the offset and its timestamp, v4+ its leader epoch."""
    if version == 0:
        return ListOffsetsPartitionResponse(partition_index=index, error_code=error,
                                            old_style_offsets=[offset] if offset >= 0 else [])
    return ListOffsetsPartitionResponse(partition_index=index, error_code=error, timestamp=timestamp, offset=offset,
                                        leader_epoch=epoch if version >= 4 else -1)


def _feature_updates(keys: list[Any], version: int) -> list[FeatureUpdate]:
    """The request's updates as Kafka's UpdateFeaturesRequest.featureUpdates reads them: each
    entry by its name, so a repeated name is read as its first entry every time; v0's
    allow_downgrade is a safe downgrade, v1's upgrade type an unknown one outside 1-3."""
    first: dict[str, Any] = {}
    for key in keys:
        first.setdefault(key.feature, key)
    updates = []
    for key in keys:
        item = first[key.feature]
        if version == 0:
            kind = SAFE_DOWNGRADE if item.allow_downgrade else UPGRADE
        else:
            kind = item.upgrade_type if item.upgrade_type in (UPGRADE, SAFE_DOWNGRADE, UNSAFE_DOWNGRADE) \
                else UNKNOWN_UPGRADE
        updates.append(FeatureUpdate(item.feature, item.max_version_level, kind))
    return updates


def _kafka_topic_order(names: list[str | None]) -> list[int]:
    """The request's topics (their indices) in the order Kafka works through them: the
    mutable.HashMap (CreateTopics) or HashSet (DeleteTopics) of their names it hands to
    ZkAdminManager. The order decides which topics a controller mutation quota refuses."""
    return hashed_map_order(list(range(len(names))),
                            lambda i: java_string_hash(names[i] or ""))


class KafkaApis:
    def __init__(self, config: KafkaConfig, cluster_id: str, metadata_cache: MetadataCache,
                 replica_manager: ReplicaManager, admin: TopicAdmin,
                 controller: KafkaController, controller_events: ControllerEventManager,
                 broker_epoch: BrokerEpoch, store_executor: Executor, extra_handlers: Mapping[int, Handler],
                 on_txn_markers_written: TxnMarkersWritten | None = None, authorizer: Authorizer = ALLOW_ALL,
                 quotas: QuotaManagers | None = None,
                 finalized_features: Callable[[], tuple[int, dict[str, int]]] = lambda: (-1, {})) -> None:
        """`store_executor` runs what calls the coordination store (admin requests, auto
        topic creation) off the event loop. `extra_handlers` serve the APIs of other
        components (the group and transaction coordinators'); with this class's own they
        make api_versions, what the broker advertises. `on_txn_markers_written` hears of
        each producer's markers written by WriteTxnMarkers (producer id, commit, the
        partitions written), before the answer: the group coordinator makes a
        transaction's offsets visible with it, as Kafka's onTransactionCompleted. `authorizer`
        decides what each request's principal may do (everything, without an authorizer);
        `quotas` are the client quota managers (fresh ones, with no quota set, if None);
        `finalized_features()` the /feature znode's version and features, for ApiVersions."""
        self.config = config
        self.quotas = quotas if quotas is not None else QuotaManagers.create()
        self.throttler = QuotaThrottler(self.quotas)
        self.authorizer = authorizer
        self.finalized_features = finalized_features
        self.cluster_id = cluster_id
        self.metadata_cache = metadata_cache
        self.replica_manager = replica_manager
        self.admin = admin
        self.controller = controller
        self.controller_events = controller_events
        self.broker_epoch = broker_epoch
        self.store_executor = store_executor
        self.on_txn_markers_written = on_txn_markers_written
        self.fetch_manager = FetchManager(FetchSessionCache(config["max.incremental.fetch.session.cache.slots"]))
        self._tasks: set[asyncio.Task] = set()
        # Encoded Metadata responses by (version, listener, topics, refused) at one cache
        # generation: clients ask the same again and again, and building the response of
        # 1,000 partitions took 4 ms of the event loop (Kafka's 1.3 ms).
        self._metadata_payloads: dict[tuple, bytes] = {}
        self._metadata_generation = -1
        # Metadata requests held until the controller's first UpdateMetadata (see
        # handle_metadata); None once it came or the wait ended.
        self._held_metadata: list[Request] | None = []
        self.handlers: dict[int, Handler] = {
            ApiKey.ApiVersions: self.handle_api_versions,
            ApiKey.Metadata: self.handle_metadata,
            ApiKey.Produce: self.handle_produce,
            ApiKey.Fetch: self.handle_fetch,
            ApiKey.ListOffsets: self.handle_list_offsets,
            ApiKey.CreateTopics: self.handle_create_topics,
            ApiKey.DeleteTopics: self.handle_delete_topics,
            ApiKey.CreatePartitions: self.handle_create_partitions,
            ApiKey.DescribeConfigs: self.handle_describe_configs,
            ApiKey.AlterConfigs: self.handle_alter_configs,
            ApiKey.IncrementalAlterConfigs: self.handle_incremental_alter_configs,
            ApiKey.DeleteRecords: self.handle_delete_records,
            ApiKey.DescribeLogDirs: self.handle_describe_log_dirs,
            ApiKey.AlterReplicaLogDirs: self.handle_alter_replica_log_dirs,
            ApiKey.DescribeCluster: self.handle_describe_cluster,
            ApiKey.OffsetForLeaderEpoch: self.handle_offset_for_leader_epoch,
            ApiKey.ElectLeaders: self.handle_elect_leaders,
            ApiKey.AlterPartitionReassignments: self.handle_alter_partition_reassignments,
            ApiKey.ListPartitionReassignments: self.handle_list_partition_reassignments,
            ApiKey.LeaderAndIsr: self.handle_leader_and_isr,
            ApiKey.UpdateMetadata: self.handle_update_metadata,
            ApiKey.StopReplica: self.handle_stop_replica,
            ApiKey.ControlledShutdown: self.handle_controlled_shutdown,
            ApiKey.AlterPartition: self.handle_alter_partition,
            ApiKey.AllocateProducerIds: self.handle_allocate_producer_ids,
            ApiKey.WriteTxnMarkers: self.handle_write_txn_markers,
            ApiKey.DescribeProducers: self.handle_describe_producers,
            ApiKey.UpdateFeatures: self.handle_update_features,
            **extra_handlers,
        }
        self.api_versions = ApiVersions.for_apis(self.handlers)

    # -- authorization (Kafka's AuthHelper) ------------------------------------------------

    def _allowed(self, request: Request, operation: AclOperation, resource_type: ResourceType, name: str,
                 log_if_denied: bool = True) -> bool:
        return self.authorizer.authorize(request, operation, resource_type, name, log_if_denied)

    def _cluster_allowed(self, request: Request, operation: AclOperation, log_if_denied: bool = True) -> bool:
        return self.authorizer.authorize(request, operation, ResourceType.CLUSTER, CLUSTER_NAME, log_if_denied)

    def _operations(self, request: Request, include: bool, resource_type: ResourceType, name: str) -> int:
        """A resource's authorized_operations field (KIP-430), omitted unless the request asked."""
        return operations_bits(self.authorizer.authorized_operations(request, resource_type, name) if include else None)

    def _cluster_operations(self, request: Request, include: bool) -> int:
        """The cluster's authorized_operations, as Kafka's handlers compute it: none at all
        (0, not omitted) for a principal that may not Describe the cluster."""
        if include and not self._cluster_allowed(request, AclOperation.DESCRIBE):
            return 0
        return self._operations(request, include, ResourceType.CLUSTER, CLUSTER_NAME)

    def _topics_allowed(self, request: Request, operation: AclOperation, names: Iterable[str | None],
                        log_if_denied: bool = True) -> set[str]:
        """The named topics the principal may `operation` (Kafka's filterByAuthorized)."""
        return {n for n in set(names)
                if n is not None and self._allowed(request, operation, ResourceType.TOPIC, n, log_if_denied)}

    def _config_refusal(self, request: Request, operation: AclOperation, resource_type: int,
                        name: str) -> ErrorCode | None:
        """Why a config resource may not be described or altered (Kafka: the topic's or the
        cluster's DESCRIBE_CONFIGS / ALTER_CONFIGS), or None."""
        if resource_type == RESOURCE_TOPIC and not self._allowed(request, operation, ResourceType.TOPIC, name):
            return ErrorCode.TOPIC_AUTHORIZATION_FAILED
        if resource_type in (RESOURCE_BROKER, RESOURCE_BROKER_LOGGER, RESOURCE_CLIENT_METRICS) \
                and not self._cluster_allowed(request, operation):
            return ErrorCode.CLUSTER_AUTHORIZATION_FAILED
        return None

    def handle(self, request: Request) -> None:
        self.throttler.attach(request)
        try:
            self.handlers[request.api_key](request)
        except Exception:
            log.exception("Error handling %s v%d from %s (client %s); closing the connection",
                          ApiKey(request.api_key).name, request.api_version, request.client_host,
                          request.header.client_id)
            request.close_connection()

    # -- ApiVersions / Metadata / DescribeCluster -----------------------------------------

    def handle_api_versions(self, request: Request) -> None:
        keys = [ApiVersion(api_key=k, min_version=lo, max_version=hi)
                for k, (lo, hi) in self.api_versions.ranges.items()]
        epoch, features = self.finalized_features()  # v3+: the /feature znode's version and features
        request.send_response(ApiVersionsResponse(
            error_code=0, api_keys=keys, throttle_time_ms=0, supported_features=[], finalized_features_epoch=epoch,
            finalized_features=[FinalizedFeatureKey(name=name, max_version_level=level, min_version_level=level)
                                for name, level in sorted(features.items())],
            zk_migration_ready=False))

    def _auto_create(self, topic: str) -> ErrorCode:
        """Kafka's auto topic creation: answer LEADER_NOT_AVAILABLE at once and create the
        topic in the background (the store executor), so clients retry until it has leaders."""
        if not self.config["auto.create.topics.enable"] or topic in INTERNAL_TOPICS:
            return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        try:
            validate_topic_name(topic)
        except KafkaError as e:
            return e.code
        rf = min(self.config["default.replication.factor"], max(1, len(self.metadata_cache.brokers)))

        def create() -> None:
            try:
                self.admin.create_topic(topic, self.config["num.partitions"], rf, None, {})
                log.info("Auto-created topic %s", topic)
            except KafkaError as e:
                if e.code != ErrorCode.TOPIC_ALREADY_EXISTS:
                    log.warning("Auto-creation of topic %s failed: %s", topic, e)

        self.store_executor.submit(create)
        return ErrorCode.LEADER_NOT_AVAILABLE

    def _answer_later(self, request: Request, result: Awaitable[T], respond: Callable[[T], None]) -> None:
        """Answer once `result` is ready (work on the controller thread or the store
        executor); if it fails, the error is logged and the connection closed, as for a
        handler that raises."""
        async def run() -> None:
            try:
                value = await result
            except Exception:  # noqa: BLE001 - the client must hear back either way
                log.exception("Error handling %s v%d from %s; closing the connection", ApiKey(request.api_key).name,
                              request.api_version, request.client_host)
                request.close_connection()
                return
            respond(value)

        self._tasks.add(task := asyncio.get_running_loop().create_task(run()))
        task.add_done_callback(self._tasks.discard)

    def _with_store(self, request: Request, work: Callable[[], T], respond: Callable[[T], None]) -> None:
        """Run `work`, which calls the coordination store, on the store executor and answer
        on the loop: a slow ZooKeeper delays admin requests, never produce or fetch."""
        self._answer_later(request, asyncio.get_running_loop().run_in_executor(self.store_executor, work), respond)

    def handle_metadata(self, request: Request) -> None:
        """Answered once the controller's first UpdateMetadata is in (at most
        FIRST_METADATA_WAIT_S). Deviation: a ZooKeeper-mode Kafka broker answers at once, and
        before that update it lists no broker and no topic; librdkafka from 2.13 then drops
        every broker it knew and never reconnects (librdkafka issue 5301). A josefk broker
        restarted right after its old ZooKeeper session (the controller's) expired is served
        for half a second before the new controller tells it anything, and the mixed-cluster
        kill -9 test's clients lost the cluster that way. KRaft brokers likewise serve only
        once they have caught up with the metadata."""
        if self.metadata_cache.generation > 0 or self._held_metadata is None:
            self._answer_metadata(request)
            return
        if not self._held_metadata:
            asyncio.get_running_loop().call_later(FIRST_METADATA_WAIT_S, self._answer_held_metadata)
        self._held_metadata.append(request)

    def _answer_held_metadata(self) -> None:
        """The first UpdateMetadata came, or the wait for it ended: answer what waited, and
        from now on answer at once."""
        held, self._held_metadata = self._held_metadata or [], None
        for request in held:
            self._answer_metadata(request)

    def _answer_metadata(self, request: Request) -> None:
        req, version = request.body, request.api_version
        cache = self.metadata_cache
        if req.topics is None or (version == 0 and not req.topics):
            names = sorted(cache.topics)
            requested = False
        else:
            names = []
            for t in req.topics:
                name = t.name
                if name is None and t.topic_id is not None:
                    name = cache.topic_by_id(t.topic_id)
                names.append(name)
            requested = True
        allow_auto = version < 4 or req.allow_auto_topic_creation
        # Kafka hides the topics the principal may not DESCRIBE from an all-topics request and
        # refuses them by name otherwise; creating a missing topic needs CREATE (cluster or topic).
        describable = self._topics_allowed(request, AclOperation.DESCRIBE, names, log_if_denied=requested)
        refused = [n for n in dict.fromkeys(names) if n is not None and n not in describable] if requested else []
        names = [n for n in names if n is None or n in describable]
        no_create: list[str] = []
        if requested and allow_auto and self.config["auto.create.topics.enable"]:
            missing = [n for n in dict.fromkeys(names) if n is not None and n not in cache.topics]
            if missing and not self._cluster_allowed(request, AclOperation.CREATE, log_if_denied=False):
                creatable = self._topics_allowed(request, AclOperation.CREATE, missing)
                no_create = [n for n in missing if n not in creatable]
                names = [n for n in names if n not in no_create]
        include_topic_ops = version >= 8 and req.include_topic_authorized_operations
        include_cluster_ops = 8 <= version <= 10 and req.include_cluster_authorized_operations
        # The encoded answer is reused while the metadata is unchanged, unless it must differ
        # per request: operations computed for the principal, or a throttle time to carry.
        key: tuple | None = None
        cacheable = not include_topic_ops and not include_cluster_ops and request.on_response_body is None
        if cacheable and (not requested or all(n is not None and n in cache.topics for n in names)):
            if self._metadata_generation != cache.generation:
                self._metadata_payloads.clear()
                self._metadata_generation = cache.generation
            key = (version, request.listener_name, tuple(names), tuple(no_create + refused))
            payload = self._metadata_payloads.get(key)
            if payload is not None:
                request.send_raw([payload])
                return
        topics = []
        for name in names:
            error = ErrorCode.NONE
            if name is None:
                topics.append(MetadataResponseTopic(error_code=ErrorCode.UNKNOWN_TOPIC_ID, name=None,
                                                    is_internal=False, partitions=[]))
                continue
            if name not in cache.topics and requested:
                error = self._auto_create(name) if allow_auto else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            partitions = []
            for p, state in sorted(cache.topics.get(name, {}).items()):
                live = [r for r in state.replicas if r in cache.brokers]
                partitions.append(MetadataResponsePartition(
                    error_code=ErrorCode.NONE if state.leader in cache.brokers else ErrorCode.LEADER_NOT_AVAILABLE,
                    partition_index=p, leader_id=state.leader, leader_epoch=state.leader_epoch,
                    replica_nodes=state.replicas, isr_nodes=state.isr,
                    offline_replicas=[r for r in state.replicas if r not in live or r in state.offline_replicas]))
            if error == ErrorCode.NONE and not partitions:
                error = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            topics.append(MetadataResponseTopic(
                error_code=error, name=name, topic_id=cache.topic_ids.get(name, ZERO_UUID),
                is_internal=name in INTERNAL_TOPICS,
                partitions=partitions if error in (ErrorCode.NONE, ErrorCode.LEADER_NOT_AVAILABLE) else [],
                topic_authorized_operations=self._operations(request, include_topic_ops, ResourceType.TOPIC, name)))
        topics.extend(MetadataResponseTopic(error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED, name=name,
                                            is_internal=name in INTERNAL_TOPICS, partitions=[])
                      for name in no_create + refused)
        brokers = [MetadataResponseBroker(node_id=b.broker_id, host=e.host, port=e.port, rack=b.rack)
                   for b, e in cache.brokers_on(request.listener_name)]
        response = MetadataResponse(throttle_time_ms=0, brokers=brokers, cluster_id=self.cluster_id,
                                    controller_id=cache.controller_id, topics=topics,
                                    cluster_authorized_operations=self._cluster_operations(request,
                                                                                           include_cluster_ops))
        if key is None:
            request.send_response(response)
            return
        if len(self._metadata_payloads) >= _METADATA_PAYLOADS:
            self._metadata_payloads.clear()
        payload = self._metadata_payloads[key] = bytes(response.encode(version=version))
        request.send_raw([payload])

    def handle_describe_cluster(self, request: Request) -> None:
        cache = self.metadata_cache
        brokers = [DescribeClusterBroker(broker_id=b.broker_id, host=e.host, port=e.port, rack=b.rack)
                   for b, e in cache.brokers_on(request.listener_name)]
        request.send_response(DescribeClusterResponse(
            throttle_time_ms=0, error_code=0, error_message=None, endpoint_type=1, cluster_id=self.cluster_id,
            controller_id=cache.controller_id, brokers=brokers, cluster_authorized_operations=self._cluster_operations(
                request, request.body.include_cluster_authorized_operations)))

    # -- Produce ------------------------------------------------------------------------

    def handle_produce(self, request: Request) -> None:
        req = request.body
        if req.acks not in (-1, 0, 1):
            errors = {(t.name, p.index): ErrorCode.INVALID_REQUIRED_ACKS for t in req.topic_data
                      for p in t.partition_data}
        else:
            entries = {}
            errors = {}
            # As Kafka: transactional records need a transactional id this principal may write,
            # and only then is the id checked (an idempotent producer may send one unchecked).
            tid = req.transactional_id if request.api_version >= 3 else None
            txn_refused = any(p.records is not None and first_batch_is_transactional(p.records)
                              for t in req.topic_data for p in t.partition_data) and (
                tid is None or not self._allowed(request, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, tid))
            writable = set() if txn_refused else self._topics_allowed(request, AclOperation.WRITE,
                                                                      (t.name for t in req.topic_data))
            for t in req.topic_data:
                for p in t.partition_data:
                    if txn_refused:
                        errors[(t.name, p.index)] = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
                    elif t.name not in writable:
                        errors[(t.name, p.index)] = ErrorCode.TOPIC_AUTHORIZATION_FAILED
                    elif p.records is None:
                        errors[(t.name, p.index)] = ErrorCode.INVALID_RECORD
                    else:
                        entries[(t.name, p.index)] = p.records
            sequences, producer = self._transactional_batches(entries) if tid is not None and not txn_refused \
                else ({}, None)
            if producer is None:
                self.replica_manager.append_records(
                    entries, req.acks, _now_ms(), req.timeout_ms,
                    lambda results: self._produce_response(request, errors, results))
            elif producer == _MIXED_PRODUCERS:  # Kafka refuses the request (InvalidPidMappingException)
                errors = dict.fromkeys(errors | entries, ErrorCode.INVALID_PRODUCER_ID_MAPPING)
                self._produce_response(request, errors, {}, dict.fromkeys(
                    errors, "Transactional records contained more than one producer ID"))
            else:
                self._verify_then_append(request, tid, sequences, producer, entries, errors)  # type: ignore[arg-type]
            return
        self._produce_response(request, errors, {})

    @staticmethod
    def _transactional_batches(entries: dict[TopicPartition, Any]
                               ) -> tuple[dict[TopicPartition, int], tuple[int, int] | None]:
        """The partitions with a transactional batch, by base sequence, and the producer
        (id, epoch) that wrote them; _MIXED_PRODUCERS when they disagree."""
        sequences: dict[TopicPartition, int] = {}
        producers = set()
        for key, records in entries.items():
            if first_batch_is_transactional(records) and (header := read_header(records)).producer_id >= 0:
                sequences[key] = header.base_sequence
                producers.add((header.producer_id, header.producer_epoch))
        if not producers:
            return sequences, None
        return sequences, producers.pop() if len(producers) == 1 else _MIXED_PRODUCERS

    def _verify_then_append(self, request: Request, tid: str, sequences: dict[TopicPartition, int],
                            producer: tuple[int, int], entries: dict[TopicPartition, Any], errors: dict) -> None:
        """Kafka's appendRecords with verification: start a verification (KIP-890) where the
        producer's transaction is not open yet, ask its coordinator, then append what it
        vouched for under the guards. While the coordinator is asked the connection is
        muted (as Kafka reads one request at a time), so the producer's next requests are
        appended after this one."""
        muted = False
        answered = False

        def verified(failed: dict[TopicPartition, ErrorCode], guards: dict) -> None:
            nonlocal answered
            answered = True
            messages = {}
            for key, error in failed.items():
                errors[key] = _PRODUCE_VERIFICATION_ERRORS.get(error, error)
                entries.pop(key, None)
                if error == ErrorCode.INVALID_TXN_STATE:
                    messages[key] = "Partition was not added to the transaction"
                elif error in _PRODUCE_VERIFICATION_ERRORS:
                    messages[key] = ("Unable to verify the partition has been added to the transaction. "
                                     f"Underlying error: {error.name}")
            try:
                self.replica_manager.append_records(
                    entries, request.body.acks, _now_ms(), request.body.timeout_ms,
                    lambda results: self._produce_response(request, errors, results, messages),
                    verification_guards=guards)
            finally:
                if muted:
                    request.end_throttling()

        self.replica_manager.start_transaction_verification(sequences, tid, *producer, verified)
        if not answered:  # the coordinator was asked
            muted = True
            request.start_throttling()

    def _produce_response(self, request: Request, errors: dict, results: dict,
                          messages: dict[TopicPartition, str] | None = None) -> None:
        """`errors`: the partitions refused before the append, `messages` what Kafka says
        of some of those; `results`: the appends'."""
        req = request.body
        throttle_ms = self.throttler.produce_throttle_ms(request, req.acks)
        if req.acks == 0:
            request.no_response()
            return
        topics = []
        for t in req.topic_data:
            parts = []
            for p in t.partition_data:
                result = results.get((t.name, p.index))
                if result is None:
                    parts.append(PartitionResult(p.index, errors[(t.name, p.index)], -1, -1, -1,
                                                 (messages or {}).get((t.name, p.index))))
                else:
                    message = result.message if result.error not in _PRODUCE_ERRORS_WITHOUT_MESSAGE else None
                    parts.append(PartitionResult(p.index, result.error, result.base_offset, result.log_append_time,
                                                 result.log_start_offset, message if result.error else None))
            topics.append((t.name, parts))
        request.send_raw([encode_produce_response(request.api_version, topics, throttle_ms)])

    # -- Fetch --------------------------------------------------------------------------

    def handle_fetch(self, request: Request) -> None:
        req, version = request.body, request.api_version
        if version >= 15:  # KIP-903 moved the replica id into a tagged field, absent for consumers
            replica_id = req.replica_state.replica_id if req.replica_state is not None else -1
        else:
            replica_id = req.replica_id
        # Session partitions are keyed by (topic id, partition) from v13, (name, partition) before.
        fetch_data: dict[Hashable, PartitionRequest] = {}
        for t in req.topics:
            for p in t.partitions:
                fetch_data[(t.topic_id if version >= 13 else t.topic, p.partition)] = PartitionRequest(
                    p.fetch_offset, p.partition_max_bytes, p.log_start_offset if version >= 5 else -1,
                    p.last_fetched_epoch if version >= 12 else -1, p.current_leader_epoch if version >= 9 else -1)
        to_forget: list[Hashable] = []
        if version >= 7:
            for f in req.forgotten_topics_data:
                to_forget.extend((f.topic_id if version >= 13 else f.topic, p) for p in f.partitions)
            session_id, session_epoch = req.session_id, req.session_epoch
        else:
            session_id, session_epoch = INVALID_SESSION_ID, FINAL_EPOCH
        context = self.fetch_manager.new_context(version, session_id, session_epoch, replica_id >= 0, fetch_data,
                                                 to_forget)
        if context.error != ErrorCode.NONE:
            request.send_response(FetchResponse(throttle_time_ms=0, error_code=context.error,
                                                session_id=INVALID_SESSION_ID))
            return
        # Names resolved once per topic, not per partition (a topic id lookup scans the cache).
        parts = context.partitions()
        names: dict[Any, str | None] = {}  # topic id (v13+) or name -> name, None if unknown
        for key, _part in parts:
            topic = cast(tuple[Any, int], key)[0]
            if topic not in names:
                names[topic] = self.metadata_cache.topic_by_id(topic) if version >= 13 else topic
        # Kafka: a follower needs CLUSTER_ACTION, a consumer READ on each topic; refused
        # partitions are answered TOPIC_AUTHORIZATION_FAILED without a read.
        readable: set[str]
        if replica_id >= 0:
            readable = {n for n in names.values() if n is not None} if self._cluster_allowed(
                request, AclOperation.CLUSTER_ACTION) else set()
        else:
            readable = self._topics_allowed(request, AclOperation.READ, names.values())
        fetches: list[FetchPartition] = []
        served: list[Hashable] = []  # the keys of `fetches`, in the same order
        refused: list[Hashable] = []  # unknown topic ids and refused topics: answered without a read
        for key, part in parts:
            topic, partition = cast(tuple[Any, int], key)
            name = names[topic]
            if name is None or name not in readable:
                refused.append(key)
            else:
                served.append(key)
                fetches.append(FetchPartition(name, partition, part.fetch_offset, part.max_bytes,
                                              part.last_fetched_epoch, part.current_leader_epoch))
        max_bytes = req.max_bytes if version >= 3 else 2**31 - 1
        if replica_id < 0:  # a consumer never asks for more than its quota allows in one window
            max_bytes = int(min(max_bytes, self.throttler.fetch_max_bytes(request)))
        topic_ids = self.metadata_cache.topic_ids

        topic_stats = self.replica_manager.metrics.topics
        isolation_level = req.isolation_level if version >= 4 else 0
        quota = self.replica_manager.quotas.leader if replica_id >= 0 else UNBOUNDED_QUOTA

        def respond(results: list[FetchResult]) -> None:
            if replica_id < 0:  # follower fetches are exempt from client quotas
                size = sum(r.read.size for r in results if r.read is not None)
                throttle_ms = self.throttler.fetch_throttle_ms(request, size)
                if throttle_ms > 0:
                    error, session = context.throttled()
                    request.send_response(FetchResponse(throttle_time_ms=throttle_ms, error_code=error,
                                                        session_id=session))
                    return
            else:
                throttle_ms = 0
                # Kafka's sizeOfThrottledPartitions: a throttled partition's bytes count against the
                # leader's quota whether or not its follower is in sync.
                quota.record(sum(r.read.size for r in results
                                 if r.read is not None and quota.is_throttled((r.topic, r.partition))))
            # Kafka lists the partitions read first, then those refused up front (unknown topic ids).
            entries: dict[Hashable, tuple[str | None, UUID, PartitionData, int]] = {}
            diverged: set[Hashable] = set()
            fills: dict[Hashable, tuple[bytes, list]] = {}
            zero_copy_fill = version > 3
            for key, r in zip(served, results, strict=True):  # one result per fetch, in order
                read = r.read
                error = r.error if version >= 10 else self._old_fetch_error(r, version, replica_id)
                if error == ErrorCode.NONE and read is not None and not read.regions \
                        and not read.aborted_transactions and read.diverging_epoch is None:
                    # nothing read (most partitions of a fetch over many): the short way
                    entries[key] = (r.topic, topic_ids.get(r.topic, ZERO_UUID), PartitionData(
                        partition_index=r.partition, error_code=error, high_watermark=read.high_watermark,
                        last_stable_offset=read.last_stable_offset, log_start_offset=read.log_start_offset,
                        aborted_transactions=[] if isolation_level == 1 else None, preferred_read_replica=-1,
                        records=b""), 0)
                    continue
                filled: int | None = None  # the records' size where they are filled in later
                if replica_id < 0 and read is not None and read.regions:  # BytesOutPerSec: consumers only
                    topic_stats.record_bytes_out(r.topic, read.size)
                records: bytes = b""
                hw = lso = start = -1
                aborted: list[AbortedTransaction] | None = None
                if error == ErrorCode.NONE and read is not None:
                    hw, lso = read.high_watermark, read.last_stable_offset
                    start = read.log_start_offset
                    if read.aborted_transactions is not None:
                        aborted = [AbortedTransaction(producer_id=t.producer_id, first_offset=t.first_offset)
                                   for t in read.aborted_transactions]
                    if read.regions and not zero_copy_fill:
                        error, records = self._down_convert(r, read.regions, version)
                        if error != ErrorCode.NONE:
                            hw = lso = start = -1
                    elif read.regions:
                        records = zero_copy.placeholder()
                        fills[key] = (records, list(read.regions))
                        filled = read.size
                data = PartitionData(
                    partition_index=r.partition, error_code=error, high_watermark=hw, last_stable_offset=lso,
                    log_start_offset=start,
                    # Kafka: null for a read-uncommitted read, a list when read committed or refused up front
                    aborted_transactions=aborted if aborted is not None
                    else [] if isolation_level == 1 or error == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION else None,
                    preferred_read_replica=-1, records=records)
                if read is not None and read.diverging_epoch is not None and version >= 12:
                    epoch, end_offset = read.diverging_epoch
                    data.diverging_epoch = EpochEndOffset(epoch=epoch, end_offset=end_offset)
                    diverged.add(key)
                entries[key] = (r.topic, topic_ids.get(r.topic, ZERO_UUID), data,
                                len(records) if filled is None else filled)
            for key in refused:
                topic, partition = cast(tuple[Any, int], key)
                name = names[topic]
                entries[key] = (name, topic if version >= 13 else ZERO_UUID, PartitionData(
                    partition_index=partition, error_code=ErrorCode.UNKNOWN_TOPIC_ID if name is None
                    else ErrorCode.TOPIC_AUTHORIZATION_FAILED, high_watermark=-1, last_stable_offset=-1,
                    log_start_offset=-1, aborted_transactions=[], preferred_read_replica=-1, records=b""), 0)
            error, response_session_id, listed = context.respond({
                key: PartitionResponse(data.error_code, data.high_watermark, data.log_start_offset, size,
                                       key in diverged)
                for key, (_, _, data, size) in entries.items()})
            responses: list[FetchableTopicResponse] = []
            used_fills = []
            for key in listed:  # consecutive partitions of one topic share a topic entry, as in Kafka
                name, topic_id, data, _ = entries[key]
                last = responses[-1] if responses else None
                if last is not None and last.topic == (name or "") and last.topic_id == topic_id:
                    last.partitions.append(data)
                else:
                    responses.append(FetchableTopicResponse(topic=name or "", topic_id=topic_id, partitions=[data]))
                if key in fills:
                    used_fills.append(fills[key])
            body = FetchResponse(throttle_time_ms=throttle_ms, error_code=error, session_id=response_session_id,
                                 responses=responses)
            encoded = body.encode(version=version)
            request.send_raw(zero_copy.splice(encoded, used_fills, request.header.flexible) if used_fills
                             else [encoded])

        self.replica_manager.fetch_messages(fetches, max_bytes, req.min_bytes, req.max_wait_ms, replica_id,
                                            respond, isolation_level, quota)

    def _old_fetch_error(self, r: FetchResult, version: int, replica_id: int) -> ErrorCode:
        """Kafka's maybeConvertFetchedData checks before any records are read: Fetch below v10
        cannot carry zstd, so a topic configured for zstd answers UNSUPPORTED_COMPRESSION_TYPE;
        a client (not a follower) needing down-conversion where message.downconversion.enable
        is false gets UNSUPPORTED_VERSION."""
        partition = self.replica_manager.partitions.get((r.topic, r.partition))
        if version >= 10 or partition is None:
            return r.error
        config = partition.log.config
        if config.compression_type == "zstd":
            return ErrorCode.UNSUPPORTED_COMPRESSION_TYPE
        if version <= 3 and replica_id < 0 and not config.message_downconversion_enable:
            return ErrorCode.UNSUPPORTED_VERSION
        return r.error

    def _down_convert(self, r: FetchResult, regions: list, version: int) -> tuple[ErrorCode, bytes]:
        """Fetch v0-v3 carries message sets. A zstd batch cannot be expressed in one
        (UNSUPPORTED_COMPRESSION_TYPE, as Kafka's RecordsUtil.downConvert), and a batch that
        cannot be read is that partition's CORRUPT_MESSAGE: the other partitions are still served."""
        data = b"".join(region.read_bytes() for region in regions)
        try:
            return ErrorCode.NONE, legacy.from_v2(data, 0 if version <= 1 else 1)
        except UnsupportedCodecError as e:
            log.info("Fetch v%d of %s-%d: %s", version, r.topic, r.partition, e)
            return ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, b""
        except CorruptRecordError as e:
            log.error("Fetch v%d of %s-%d: cannot down-convert corrupt data: %s", version, r.topic, r.partition, e)
            return ErrorCode.CORRUPT_MESSAGE, b""

    # -- WriteTxnMarkers -------------------------------------------------------------------

    def handle_write_txn_markers(self, request: Request) -> None:
        """The transaction coordinator's markers (Kafka's handleWriteTxnMarkersRequest): for
        each producer, a COMMIT or ABORT control batch appended with acks=all to every listed
        partition. A partition this broker does not host is UNKNOWN_TOPIC_OR_PARTITION, the
        append's own errors (NOT_LEADER_OR_FOLLOWER, INVALID_PRODUCER_EPOCH,
        TRANSACTION_COORDINATOR_FENCED, ...) are answered per partition, and the response
        waits for every append. It needs CLUSTER_ACTION, as in Kafka."""
        markers = request.body.markers
        errors: dict[int, dict[tuple[str, int], ErrorCode]] = {}
        pending = len(markers)
        if not self._cluster_allowed(request, AclOperation.CLUSTER_ACTION):
            markers, pending = [], 0
            for marker in request.body.markers:
                errors.setdefault(marker.producer_id, {}).update(
                    {(t.name, p): ErrorCode.CLUSTER_AUTHORIZATION_FAILED for t in marker.topics
                     for p in t.partition_indexes})

        def send() -> None:
            results = []
            for pid, by_partition in errors.items():
                topics: dict[str, list[WritableTxnMarkerPartitionResult]] = {}
                for (topic, index), error in by_partition.items():
                    topics.setdefault(topic, []).append(
                        WritableTxnMarkerPartitionResult(partition_index=index, error_code=error))
                results.append(WritableTxnMarkerResult(producer_id=pid, topics=[
                    WritableTxnMarkerTopicResult(name=name, partitions=parts) for name, parts in topics.items()]))
            request.send_response(WriteTxnMarkersResponse(markers=results))

        def one_done() -> None:
            nonlocal pending
            pending -= 1
            if pending == 0:
                send()

        def on_appended(pid: int, commit: bool) -> Callable[[dict], None]:
            def appended(results: dict) -> None:
                errors.setdefault(pid, {}).update({key: r.error for key, r in results.items()})
                written = [key for key, r in results.items() if r.error == ErrorCode.NONE]
                if written and self.on_txn_markers_written is not None:
                    self.on_txn_markers_written(pid, commit, written)
                one_done()
            return appended

        if not markers:
            send()
            return
        now = _now_ms()
        for marker in markers:
            pid = marker.producer_id
            entries: dict[tuple[str, int], bytes] = {}
            for t in marker.topics:
                for index in t.partition_indexes:
                    key = (t.name, index)
                    if key in self.replica_manager.partitions and key not in self.replica_manager.offline_partitions:
                        entries[key] = encode_end_txn_marker(pid, marker.producer_epoch, marker.coordinator_epoch,
                                                             marker.transaction_result, now)
                    else:
                        errors.setdefault(pid, {})[key] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            if not entries:
                errors.setdefault(pid, {})
                one_done()
                continue
            self.replica_manager.append_records(entries, -1, now, self.config["request.timeout.ms"],
                                                on_appended(pid, marker.transaction_result),
                                                origin=AppendOrigin.COORDINATOR)

    # -- DescribeProducers -----------------------------------------------------------------

    def handle_describe_producers(self, request: Request) -> None:
        """The producer state of each requested partition's log (Kafka's
        handleDescribeProducersRequest), what kafka-transactions' describe-producers and
        find-hanging read. As in Kafka, any replica hosting the partition answers (its
        Partition.log is local on followers too); an invalid topic name is
        INVALID_TOPIC_EXCEPTION, a topic not in the metadata cache UNKNOWN_TOPIC_OR_PARTITION,
        a partition not hosted here NOT_LEADER_OR_FOLLOWER (or KAFKA_STORAGE_ERROR when its
        log dir is offline)."""
        topics = []
        for t in request.body.topics:
            topic_error: KafkaError | None = None
            try:
                validate_topic_name(t.name)
                if t.name not in self.metadata_cache.topics:  # Kafka's ApiError carries the default text
                    topic_error = KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                                             "This server does not host this topic-partition.")
            except KafkaError as e:
                topic_error = e
            partitions = []
            for index in t.partition_indexes:
                key = (t.name, index)
                partition = self.replica_manager.partitions.get(key)
                if topic_error is None and partition is not None and key not in self.replica_manager.offline_partitions:
                    producers = [ProducerState(
                        producer_id=e.producer_id, producer_epoch=e.epoch, last_sequence=e.last_seq,
                        last_timestamp=e.last_timestamp, coordinator_epoch=e.coordinator_epoch,
                        current_txn_start_offset=e.current_txn_first_offset)
                        for e in partition.log.producer_state.producers.values()]
                    partitions.append(ProducersPartitionResponse(partition_index=index, error_code=ErrorCode.NONE,
                                                                 error_message=None, active_producers=producers))
                    continue
                if topic_error is not None:
                    error, message = topic_error.code, topic_error.message
                elif key in self.replica_manager.offline_partitions:
                    error, message = ErrorCode.KAFKA_STORAGE_ERROR, None
                elif self.metadata_cache.partition(*key) is not None:
                    error, message = ErrorCode.NOT_LEADER_OR_FOLLOWER, None
                else:
                    error, message = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, None
                partitions.append(ProducersPartitionResponse(partition_index=index, error_code=error,
                                                             error_message=message, active_producers=[]))
            topics.append(TopicResponse(name=t.name, partitions=partitions))
        request.send_response(DescribeProducersResponse(throttle_time_ms=0, topics=topics))

    # -- ListOffsets --------------------------------------------------------------------

    def _list_offset(self, topic: str, partition: int, timestamp: int, replica_id: int,
                     isolation_level: int, current_leader_epoch: int) -> tuple[int, int, int]:
        """(offset, timestamp, leader epoch) for one ListOffsets query; raises KafkaError."""
        found = self.replica_manager.fetch_offset_for_timestamp(
            topic, partition, timestamp, FetchIsolation.of(replica_id, isolation_level), current_leader_epoch)
        if found is None:
            return -1, -1, -1
        return found.offset, found.timestamp, found.leader_epoch

    def handle_list_offsets(self, request: Request) -> None:
        req = request.body
        version = request.api_version
        isolation_level = req.isolation_level if version >= 2 else 0
        describable = self._topics_allowed(request, AclOperation.DESCRIBE, (t.name for t in req.topics))
        topics: list[ListOffsetsTopicResponse] = []
        refused: list[ListOffsetsTopicResponse] = []
        for t in req.topics:
            if t.name not in describable:  # answered after the authorized topics, as Kafka
                refused.append(ListOffsetsTopicResponse(name=t.name, partitions=[
                    _list_offsets_partition(version, p.partition_index, ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                                            -1, -1, -1) for p in t.partitions]))
                continue
            parts = []
            for p in t.partitions:
                try:
                    offset, ts, epoch = self._list_offset(t.name, p.partition_index, p.timestamp, req.replica_id,
                                                          isolation_level,
                                                          p.current_leader_epoch if request.api_version >= 4 else -1)
                    error = ErrorCode.NONE
                except KafkaError as e:
                    offset, ts, epoch, error = -1, -1, -1, e.code
                parts.append(_list_offsets_partition(version, p.partition_index, error, offset, ts, epoch))
            topics.append(ListOffsetsTopicResponse(name=t.name, partitions=parts))
        request.send_response(ListOffsetsResponse(throttle_time_ms=0, topics=topics + refused))

    def handle_offset_for_leader_epoch(self, request: Request) -> None:
        req = request.body
        # Kafka: a replica with CLUSTER_ACTION may ask about any topic, others need DESCRIBE.
        if self._cluster_allowed(request, AclOperation.CLUSTER_ACTION):
            describable = {t.topic for t in req.topics}
        else:
            describable = self._topics_allowed(request, AclOperation.DESCRIBE, (t.topic for t in req.topics))
        topics: list[OffsetForLeaderTopicResult] = []
        refused: list[OffsetForLeaderTopicResult] = []
        for t in req.topics:
            if t.topic not in describable:
                refused.append(OffsetForLeaderTopicResult(topic=t.topic, partitions=[LeaderEpochEndOffset(
                    error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED, partition=p.partition, leader_epoch=-1,
                    end_offset=-1) for p in t.partitions]))
                continue
            results = []
            for p in t.partitions:
                try:
                    partition = self.replica_manager.leader_partition(t.topic, p.partition, p.current_leader_epoch)
                    epoch, end = partition.last_offset_for_leader_epoch(p.leader_epoch)
                    error = ErrorCode.NONE
                except KafkaError as e:
                    epoch, end, error = -1, -1, e.code
                results.append(LeaderEpochEndOffset(error_code=error, partition=p.partition, leader_epoch=epoch,
                                                    end_offset=end))
            topics.append(OffsetForLeaderTopicResult(topic=t.topic, partitions=results))
        request.send_response(OffsetForLeaderEpochResponse(throttle_time_ms=0, topics=topics + refused))

    # -- topic administration -----------------------------------------------------------

    def _not_controller(self) -> bool:
        return not self.controller.active

    def handle_create_topics(self, request: Request) -> None:
        req, version = request.body, request.api_version
        names = [t.name for t in req.topics]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        creatable = set(names) if self._cluster_allowed(request, AclOperation.CREATE, log_if_denied=False) \
            else self._topics_allowed(request, AclOperation.CREATE, names)
        configs_visible = self._topics_allowed(request, AclOperation.DESCRIBE_CONFIGS, names, log_if_denied=False)
        quota = self.throttler.controller_mutation_quota(request)

        def work() -> list[CreatableTopicResult]:
            results = []
            for i in _kafka_topic_order([t.name for t in req.topics]):
                t = req.topics[i]
                if t.name in duplicates:  # Kafka refuses every entry of a repeated name, below
                    continue
                error, message, created = ErrorCode.NONE, None, None
                partitions, rf = t.num_partitions, t.replication_factor
                try:
                    if self._not_controller():
                        raise KafkaError(ErrorCode.NOT_CONTROLLER, _NOT_CONTROLLER)
                    if t.name not in creatable:
                        raise KafkaError(ErrorCode.TOPIC_AUTHORIZATION_FAILED, "Authorization failed.")
                    assignment = {a.partition_index: list(a.broker_ids) for a in t.assignments} or None
                    if not assignment:
                        partitions = self.config["num.partitions"] if partitions == -1 else partitions
                        rf = self.config["default.replication.factor"] if rf == -1 else rf
                    configs = {c.name: c.value for c in t.configs}
                    created = self.admin.create_topic(t.name, partitions, rf, assignment, configs, req.validate_only,
                                                      quota.record)
                    if assignment:
                        partitions, rf = len(assignment), len(next(iter(assignment.values())))
                except KafkaError as e:
                    error, message = e.code, e.message
                # Kafka shows a created topic's id, partitions, replication factor and configs
                # only to a client that may DESCRIBE_CONFIGS it.
                visible = t.name in configs_visible
                results.append(CreatableTopicResult(
                    name=t.name,
                    topic_id=(created.topic_id or ZERO_UUID) if created and not req.validate_only and visible
                    else ZERO_UUID,
                    error_code=error,
                    error_message=message if version >= 1 else None,
                    topic_config_error_code=0 if visible or version < 5
                    or error == ErrorCode.TOPIC_AUTHORIZATION_FAILED else ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                    num_partitions=partitions if error == ErrorCode.NONE and visible else -1,
                    replication_factor=rf if error == ErrorCode.NONE and visible else -1,
                    configs=self._creatable_configs({c.name: c.value for c in t.configs})
                    if error == ErrorCode.NONE and version >= 5 and t.name in configs_visible
                    else [] if version >= 5 else None))
            results.sort(key=lambda r: names.index(r.name))  # answered in the request's order
            for name in (n for n in names if n in duplicates):  # one result per entry, as Kafka
                results.append(CreatableTopicResult(
                    name=name, error_code=ErrorCode.INVALID_REQUEST,
                    error_message=f"Create topics request from client `{request.header.client_id}` contains "
                    f"multiple entries for the following topics: {', '.join(duplicates)}" if version >= 1 else None,
                    topic_config_error_code=0, num_partitions=-1, replication_factor=-1,
                    configs=[] if version >= 5 else None))
            return results

        def respond(results: list[CreatableTopicResult]) -> None:
            created = {r.name: r.num_partitions for r in results
                       if r.error_code == ErrorCode.NONE and not req.validate_only}
            self._when_in_metadata(created, req.timeout_ms, lambda: self._send_mutations_response(
                request, quota, CreateTopicsResponse(throttle_time_ms=0, topics=results)))

        self._with_store(request, work, respond)

    def _send_mutations_response(self, request: Request, quota: ControllerMutationQuota,
                                 body: CreateTopicsResponse | DeleteTopicsResponse | CreatePartitionsResponse) -> None:
        self.throttler.throttle_mutations(request, quota, body)
        request.send_response(body)

    def _when_in_metadata(self, partitions: dict[str, int], timeout_ms: int, then: Callable[[], None]) -> None:
        """Kafka answers CreateTopics and CreatePartitions once the new partitions have
        leaders in its metadata cache, DeleteTopics once the topics left it (a count of 0);
        the controller gets there asynchronously, on its own thread."""
        def ready() -> bool:
            cache = self.metadata_cache.topics
            return all(len(cache.get(t, {})) >= count and all(s.leader >= 0 for s in cache.get(t, {}).values())
                       if count else t not in cache for t, count in partitions.items())

        if ready():
            then()
            return

        async def wait() -> None:
            deadline = time.monotonic() + max(timeout_ms, 0) / 1000
            while not ready() and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            then()

        self._tasks.add(task := asyncio.get_running_loop().create_task(wait()))
        task.add_done_callback(self._tasks.discard)

    def _creatable_configs(self, overrides: dict[str, str]) -> list[CreatableTopicConfigs]:
        effective = {**self.config.topic_defaults(), **overrides}

        def source(name: str, value: str) -> int:  # Kafka's: its first synonym's, as in DescribeConfigs
            synonyms = self.config.topic_synonyms(name, overrides, value)
            return synonyms[0][2] if synonyms else SOURCE_DEFAULT_CONFIG

        return [CreatableTopicConfigs(
            name=name, value=value, read_only=False, config_source=source(name, value), is_sensitive=False)
            for name, value in sorted(effective.items())]

    def handle_delete_topics(self, request: Request) -> None:
        req, version = request.body, request.api_version
        if version >= 6:
            targets = [(t.name or self.metadata_cache.topic_by_id(t.topic_id), t.topic_id if t.topic_id != ZERO_UUID
                        else None) for t in req.topics]
        else:
            targets = [(name, None) for name in req.topic_names]
        deletable = self._topics_allowed(request, AclOperation.DELETE, (name for name, _ in targets))
        describable = self._topics_allowed(request, AclOperation.DESCRIBE, (name for name, _ in targets))
        quota = self.throttler.controller_mutation_quota(request)

        def work() -> list[DeletableTopicResult]:
            results: list[tuple[int, DeletableTopicResult]] = []
            for i in _kafka_topic_order([name for name, _ in targets]):
                name, topic_id = targets[i]
                error = ErrorCode.NONE
                try:
                    if self._not_controller():
                        raise KafkaError(ErrorCode.NOT_CONTROLLER)
                    if name is None:
                        raise KafkaError(ErrorCode.UNKNOWN_TOPIC_ID)
                    if not self.config["delete.topic.enable"]:
                        raise KafkaError(ErrorCode.TOPIC_DELETION_DISABLED)
                    if topic_id is not None and name not in describable:
                        name = None  # Kafka does not name a topic to a client that may not describe it
                        raise KafkaError(ErrorCode.TOPIC_AUTHORIZATION_FAILED)
                    if name not in deletable:
                        raise KafkaError(ErrorCode.TOPIC_AUTHORIZATION_FAILED)
                    topic_id = topic_id or self.metadata_cache.topic_ids.get(name)
                    self.admin.delete_topic(name, quota.record)
                except KafkaError as e:
                    # ZooKeeper-mode Kafka answers DeleteTopics with error codes only (its delete
                    # callback carries an Errors per topic, no message): keep ours for the log.
                    error = e.code
                    log.debug("DeleteTopics %s: %s", name, e.message or e.code.name)
                results.append((i, DeletableTopicResult(name=name, topic_id=topic_id or ZERO_UUID, error_code=error,
                                                        error_message=None)))
            return [result for _i, result in sorted(results, key=lambda r: r[0])]  # in the request's order

        def respond(results: list[DeletableTopicResult]) -> None:
            deleted = {r.name: 0 for r in results if r.error_code == ErrorCode.NONE and r.name is not None}
            self._when_in_metadata(deleted, req.timeout_ms, lambda: self._send_mutations_response(
                request, quota, DeleteTopicsResponse(throttle_time_ms=0, responses=results)))

        self._with_store(request, work, respond)

    def handle_create_partitions(self, request: Request) -> None:
        req = request.body
        alterable = self._topics_allowed(request, AclOperation.ALTER, (t.name for t in req.topics))
        quota = self.throttler.controller_mutation_quota(request)

        def work() -> list[CreatePartitionsTopicResult]:
            results = []
            for t in req.topics:
                error, message = ErrorCode.NONE, None
                try:
                    if self._not_controller():
                        raise KafkaError(ErrorCode.NOT_CONTROLLER)
                    if t.name not in alterable:
                        raise KafkaError(ErrorCode.TOPIC_AUTHORIZATION_FAILED, "The topic authorization is failed.")
                    assignment = [list(a.broker_ids) for a in t.assignments] if t.assignments else None
                    self.admin.add_partitions(t.name, t.count, assignment, req.validate_only, quota.record)
                except KafkaError as e:
                    error, message = e.code, e.message
                results.append(CreatePartitionsTopicResult(name=t.name, error_code=error, error_message=message))
            return results

        def respond(results: list[CreatePartitionsTopicResult]) -> None:
            added = {t.name: t.count for t, r in zip(req.topics, results, strict=True)
                     if r.error_code == ErrorCode.NONE and not req.validate_only}
            self._when_in_metadata(added, req.timeout_ms, lambda: self._send_mutations_response(
                request, quota, CreatePartitionsResponse(throttle_time_ms=0, results=results)))

        self._with_store(request, work, respond)

    def handle_describe_configs(self, request: Request) -> None:
        req = request.body
        include_synonyms = request.api_version >= 1 and req.include_synonyms
        refusals = [self._config_refusal(request, AclOperation.DESCRIBE_CONFIGS, r.resource_type, r.resource_name)
                    for r in req.resources]

        def work() -> list[DescribeConfigsResult]:
            results: list[DescribeConfigsResult] = []
            refused: list[DescribeConfigsResult] = []
            for r, refusal in zip(req.resources, refusals, strict=True):
                if refusal is not None:  # answered after the authorized resources, as Kafka
                    refused.append(DescribeConfigsResult(error_code=refusal, error_message=_AUTH_MESSAGES[refusal],
                                                         resource_type=r.resource_type, resource_name=r.resource_name,
                                                         configs=[]))
                    continue
                if r.resource_type == RESOURCE_CLIENT_METRICS:
                    results.append(client_metrics_configs.describe(self.admin.store, r.resource_name,
                                                                   include_synonyms, r.configuration_keys))
                    continue
                keys = set(r.configuration_keys) if r.configuration_keys else None  # Kafka: none or empty, all
                error, message = ErrorCode.NONE, ""  # Kafka: an empty message on success, not null
                # (name, value, synonyms as (name, value, source), Kafka's ConfigDef.Type name)
                entries: list[tuple[str, str | None, list[tuple[str, str, int]], str]] = []
                if r.resource_type == RESOURCE_TOPIC:
                    if not self.admin.topic_exists(r.resource_name):
                        error, message = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic {r.resource_name} does not exist"
                    else:
                        overrides = self.admin.topic_configs(r.resource_name)
                        effective = self.admin.validate_configs(overrides).to_props()
                        for name in sorted(TOPIC_CONFIG_NAMES & set(effective)):
                            entries.append((name, effective[name],
                                            self.config.topic_synonyms(name, overrides, effective[name]),
                                            topic_config_type(name)))
                elif r.resource_type == RESOURCE_BROKER and r.resource_name == "":
                    # The cluster default lists only what is set dynamically (Kafka's
                    # currentDynamicDefaultConfigs), each with its DYNAMIC_DEFAULT synonyms.
                    for name, value in sorted(self.config.dynamic_default.items()):
                        entries.append((name, value, self.config.synonyms(name, per_broker=False),
                                        broker_config_type(name)))
                elif r.resource_type == RESOURCE_BROKER:
                    if r.resource_name != str(self.config.broker_id):
                        error, message = ErrorCode.INVALID_REQUEST, (
                            f"Unexpected broker id, expected {self.config.broker_id} or empty string, "
                            f"but received {r.resource_name}")
                    else:
                        for name, text in sorted(self.config.described().items()):
                            entries.append((name, text, self.config.synonyms(name), broker_config_type(name)))
                else:
                    error, message = ErrorCode.INVALID_REQUEST, f"Unsupported resource type {r.resource_type}"
                # As Kafka: the source is the first synonym's (none: DEFAULT_CONFIG), synonyms are
                # sent only when asked for, and v0's is_default is never set (Kafka 3.9 leaves the
                # field at its default, false).
                # PASSWORD keys (keystore passwords, inline keys) are sensitive: no value, as Kafka.
                configs = [DescribeConfigsResourceResult(
                    name=n, value=None if t == "PASSWORD" else v,
                    read_only=r.resource_type == RESOURCE_BROKER and self.config.read_only(n),
                    config_source=syn[0][2] if syn else SOURCE_DEFAULT_CONFIG, is_default=False,
                    is_sensitive=t == "PASSWORD", config_type=CONFIG_TYPE_IDS.get(t, 0), documentation=None,
                    synonyms=[DescribeConfigsSynonym(name=sn, value=None if t == "PASSWORD" else sv, source=ss)
                              for sn, sv, ss in syn] if include_synonyms else [])
                    for n, v, syn, t in entries if keys is None or n in keys]
                results.append(DescribeConfigsResult(error_code=error, error_message=message,
                                                     resource_type=r.resource_type, resource_name=r.resource_name,
                                                     configs=configs))
            return results + refused

        self._with_store(request, work, lambda results: request.send_response(
            DescribeConfigsResponse(throttle_time_ms=0, results=results)))

    def _broker_entity(self, resource_name: str) -> str:
        """The store entity of a BROKER resource: this broker's id, or "" for the cluster default."""
        if resource_name == "":
            return DEFAULT_BROKER_ENTITY
        if resource_name != str(self.config.broker_id):
            raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unexpected broker id, expected {self.config.broker_id}, "
                                                        f"but received {resource_name}")
        return resource_name

    def _alter_configs(self, request: Request, changes_for: Callable[[Any, dict[str, str]], dict[str, str]]) -> None:
        """Shared by AlterConfigs (replace all overrides) and IncrementalAlterConfigs (edit them):
        topic overrides, or dynamic broker configs (a broker id, or "" for the cluster default)
        stored with a change notification that every broker applies. changes_for gets each
        request resource: a kafka-python struct, untyped, hence Any."""
        req = request.body
        refusals = [self._config_refusal(request, AclOperation.ALTER_CONFIGS, r.resource_type, r.resource_name)
                    for r in req.resources]

        def work() -> tuple[list[_AlterResult], dict[str, LogConfig]]:
            results: list[_AlterResult] = []
            refused: list[_AlterResult] = []
            configs: dict[str, LogConfig] = {}
            for r, refusal in zip(req.resources, refusals, strict=True):
                if refusal is not None:  # Kafka: no message, after the authorized resources
                    refused.append((refusal, None, r.resource_type, r.resource_name))
                    continue
                error, message = ErrorCode.NONE, None
                try:
                    if r.resource_type == RESOURCE_BROKER:
                        entity = self._broker_entity(r.resource_name)
                        updated = changes_for(r, self.admin.broker_configs(entity))
                        problem = self.config.dynamic_config_problem(updated)
                        if problem is not None:
                            raise KafkaError(ErrorCode.INVALID_REQUEST, problem)
                        if not req.validate_only:
                            self.admin.change_broker_configs(entity, updated)
                    elif r.resource_type == RESOURCE_CLIENT_METRICS:
                        client_metrics_configs.alter(self.admin.store, r.resource_name,
                                                     functools.partial(changes_for, r), req.validate_only)
                    elif r.resource_type != RESOURCE_TOPIC:
                        raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unsupported resource type {r.resource_type}")
                    elif not self.admin.topic_exists(r.resource_name):
                        raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                                         f"Topic {r.resource_name} does not exist")
                    else:
                        updated = changes_for(r, self.admin.topic_configs(r.resource_name))
                        self.admin.alter_topic_configs(r.resource_name, updated, req.validate_only)
                        if not req.validate_only:
                            configs[r.resource_name] = self.replica_manager.log_config_for(r.resource_name)
                except KafkaError as e:
                    error, message = e.code, e.message
                results.append((error, message, r.resource_type, r.resource_name))
            return results + refused, configs

        def respond(done: tuple[list[_AlterResult], dict[str, LogConfig]]) -> None:
            results, configs = done
            for topic, config in configs.items():  # logs take the new configs on the loop, where they live
                self.replica_manager.update_topic_config(topic, config)
            if request.api_key == ApiKey.IncrementalAlterConfigs:
                request.send_response(IncrementalAlterConfigsResponse(throttle_time_ms=0, responses=[
                    IncrementalAlterConfigsResourceResponse(error_code=error, error_message=message,
                                                            resource_type=kind, resource_name=name)
                    for error, message, kind, name in results]))
            else:
                request.send_response(AlterConfigsResponse(throttle_time_ms=0, responses=[
                    AlterConfigsResourceResponse(error_code=error, error_message=message, resource_type=kind,
                                                 resource_name=name)
                    for error, message, kind, name in results]))

        self._with_store(request, work, respond)

    def handle_alter_configs(self, request: Request) -> None:
        self._alter_configs(request, lambda r, _current: {c.name: c.value for c in r.configs})

    def handle_incremental_alter_configs(self, request: Request) -> None:
        def apply(resource, current: dict[str, str]) -> dict[str, str]:
            names = [c.name for c in resource.configs]
            if len(set(names)) != len(names):
                raise KafkaError(ErrorCode.INVALID_REQUEST, "Error due to duplicate config keys")
            updated = dict(current)
            for c in resource.configs:
                if c.config_operation == OP_SET:
                    updated[c.name] = c.value
                elif c.config_operation == OP_DELETE:
                    updated.pop(c.name, None)
                elif c.config_operation in (OP_APPEND, OP_SUBTRACT):
                    updated[c.name] = self._list_op(resource.resource_type, c.name, c.config_operation,
                                                    updated.get(c.name), c.value or "")
                else:
                    raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unknown config operation {c.config_operation}")
            return updated

        self._alter_configs(request, apply)

    def _list_op(self, resource_type: int, name: str, op: int, current: str | None, value: str) -> str:
        """APPEND or SUBTRACT on a LIST config, as Kafka's ConfigAdminManager.prepareIncrementalConfigs:
        from the current override or else the key's default; appended items not already there;
        subtracting every item leaves an empty list."""
        if resource_type == RESOURCE_TOPIC:
            kind = topic_config_type(name) if name in TOPIC_CONFIG_NAMES else None
            default = LogConfig().to_props().get(name)
        elif resource_type == RESOURCE_CLIENT_METRICS:  # Kafka 4.4's controller splits no client-metrics key
            verb = "APPEND" if op == OP_APPEND else "SUBTRACT"
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Can't {verb} to key {name} because its type is not LIST.")
        else:
            kind = broker_config_type(name) if name in KEYS or name in APPLIED_DYNAMIC_KEYS else None
            default = default_value(name)
        if kind is None:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Unknown config name: {name}")
        if kind != "LIST":
            verb = "append" if op == OP_APPEND else "subtract"
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Config value {verb} is not allowed for config key: {name}")
        items = _java_split(current if current is not None else default or "")
        if op == OP_APPEND:
            items += [v for v in _java_split(value) if v not in items]
        else:
            removed = _java_split(value)
            items = [v for v in items if v not in removed]
        return ",".join(items)

    def handle_delete_records(self, request: Request) -> None:
        req = request.body
        deletable = self._topics_allowed(request, AclOperation.DELETE, (t.name for t in req.topics))
        topics = []
        for t in req.topics:
            parts = []
            for p in t.partitions:
                try:
                    if t.name not in deletable:
                        raise KafkaError(ErrorCode.TOPIC_AUTHORIZATION_FAILED)
                    partition = self.replica_manager.leader_partition(t.name, p.partition_index)
                    low, error = partition.delete_records_before(p.offset), ErrorCode.NONE
                except KafkaError as e:
                    low, error = -1, e.code
                parts.append(DeleteRecordsPartitionResult(partition_index=p.partition_index, low_watermark=low,
                                                          error_code=error))
            topics.append(DeleteRecordsTopicResult(name=t.name, partitions=parts))
        request.send_response(DeleteRecordsResponse(throttle_time_ms=0, topics=topics))

    def handle_describe_log_dirs(self, request: Request) -> None:
        """Every configured log dir with the partitions asked for (Kafka's
        ReplicaManager.describeLogDirs): an offline dir answers KAFKA_STORAGE_ERROR; offset_lag
        is Kafka's max(HW - LEO, 0), so 0 unless the local log is behind its own high
        watermark; a future log (a replica moving here) is listed with is_future_key and
        its lag behind the current log."""
        req = request.body
        manager = self.replica_manager.log_manager
        logs = manager.all_logs()
        wanted = set(logs) if req.topics is None else {(t.topic, p) for t in req.topics for p in t.partitions}
        live = set(manager.live_log_dirs)
        results = []
        for log_dir in manager.log_dirs:
            path = str(log_dir.absolute())
            if log_dir not in live:
                results.append(DescribeLogDirsResult(error_code=ErrorCode.KAFKA_STORAGE_ERROR, log_dir=path,
                                                     topics=[]))
                continue
            by_topic: dict[str, list[DescribeLogDirsPartition]] = {}
            for (topic, index), log_ in sorted(logs.items()):
                if (topic, index) in wanted and manager.log_dir_of(topic, index) == log_dir:
                    by_topic.setdefault(topic, []).append(DescribeLogDirsPartition(
                        partition_index=index, partition_size=log_.size_in_bytes,
                        offset_lag=max(log_.high_watermark - log_.log_end_offset, 0), is_future_key=False))
            for (topic, index), log_ in sorted(manager.all_future_logs().items()):
                if (topic, index) in wanted and manager.future_log_dir_of(topic, index) == log_dir:
                    by_topic.setdefault(topic, []).append(DescribeLogDirsPartition(
                        partition_index=index, partition_size=log_.size_in_bytes,
                        offset_lag=self.replica_manager.future_log_lag((topic, index)), is_future_key=True))
            try:
                usage = shutil.disk_usage(log_dir)
                total, usable, error = usage.total, usage.free, ErrorCode.NONE
            except OSError:
                total, usable, error = -1, -1, ErrorCode.KAFKA_STORAGE_ERROR
            results.append(DescribeLogDirsResult(
                error_code=error, log_dir=path, total_bytes=total, usable_bytes=usable,
                topics=[DescribeLogDirsTopic(name=t, partitions=ps) for t, ps in by_topic.items()] if not error
                else []))
        request.send_response(DescribeLogDirsResponse(throttle_time_ms=0, error_code=0, results=results))

    def handle_alter_replica_log_dirs(self, request: Request) -> None:
        """Move replicas to other log dirs of this broker (ReplicaManager.alter_replica_log_dirs);
        the answer comes at once, the data moves in the background."""
        dirs = {(t.name, p): d.path for d in request.body.dirs for t in d.topics for p in t.partitions}
        by_topic: dict[str, list[AlterReplicaLogDirPartitionResult]] = {}
        for (topic, index), error in self.replica_manager.alter_replica_log_dirs(dirs).items():
            by_topic.setdefault(topic, []).append(AlterReplicaLogDirPartitionResult(partition_index=index,
                                                                                    error_code=error))
        request.send_response(AlterReplicaLogDirsResponse(throttle_time_ms=0, results=[
            AlterReplicaLogDirTopicResult(topic_name=t, partitions=ps) for t, ps in by_topic.items()]))

    def _on_controller(self, request: Request, kind: Event, work: Callable[[], T],
                       respond: Callable[[T], None]) -> None:
        """Run `work` as a controller event, on the controller's thread, and answer on the
        loop: the controller's store round trips never block request handling."""
        self._answer_later(request, self.controller_events.call(kind, work), respond)

    def handle_elect_leaders(self, request: Request) -> None:
        req, version = request.body, request.api_version

        def respond(results: dict[tuple[str, int], tuple[int, str]]) -> None:
            by_topic: dict[str, list[ElectionPartitionResult]] = {}
            for (topic, partition), (code, message) in sorted(results.items()):
                by_topic.setdefault(topic, []).append(ElectionPartitionResult(
                    partition_id=partition, error_code=code, error_message=message or None))
            # v0 has no top-level error: the partitions carry it
            request.send_response(ElectLeadersResponse(
                throttle_time_ms=0, error_code=top_error if version >= 1 else 0, replica_election_results=[
                    ReplicaElectionResult(topic=t, partition_result=ps) for t, ps in by_topic.items()]))

        top_error = ErrorCode.NONE
        if not self._cluster_allowed(request, AclOperation.ALTER):
            top_error = ErrorCode.CLUSTER_AUTHORIZATION_FAILED
            respond({(t.topic, p): (top_error, "") for t in req.topic_partitions or [] for p in t.partitions})
            return
        if self._not_controller():
            keys = [(t.topic, p) for t in req.topic_partitions or [] for p in t.partitions]
            respond({k: (ErrorCode.NOT_CONTROLLER, _NOT_CONTROLLER)
                     for k in keys})
            return
        wanted = None if req.topic_partitions is None else [
            (t.topic, p) for t in req.topic_partitions for p in t.partitions]
        unclean = version >= 1 and req.election_type == 1
        self._on_controller(request, Event.REPLICA_LEADER_ELECTION,
                            lambda: self.controller.elect_leaders(wanted, unclean), respond)

    def handle_update_features(self, request: Request) -> None:
        """Kafka 3.9's ZooKeeper-mode UpdateFeatures: ALTER on the cluster, then the controller,
        then feature versioning (inter.broker.protocol.version 2.7 and later) at the top level;
        the controller checks each feature (zk/feature_znode.py). An answer carries either a
        top-level error and no results, or each feature's result."""
        req, version = request.body, request.api_version

        def respond(top: tuple[int, str | None], outcomes: dict[str, InvalidFeatureUpdate | None]) -> None:
            request.send_response(UpdateFeaturesResponse(
                throttle_time_ms=0, error_code=top[0], error_message=top[1], results=[
                    UpdatableFeatureResult(feature=name, error_code=ErrorCode.INVALID_REQUEST, error_message=str(e))
                    if e is not None else UpdatableFeatureResult(feature=name, error_code=0, error_message="NONE")
                    for name, e in outcomes.items()]))

        def answer(outcomes: dict[str, InvalidFeatureUpdate | None] | None) -> None:
            if outcomes is None:
                respond((ErrorCode.NOT_CONTROLLER, _NOT_CONTROLLER), {})
            else:
                respond((ErrorCode.NONE, None), outcomes)

        if not self._cluster_allowed(request, AclOperation.ALTER):
            denied = ErrorCode.CLUSTER_AUTHORIZATION_FAILED
            respond((denied, _AUTH_MESSAGES[denied]), {})
        elif self._not_controller():
            respond((ErrorCode.NOT_CONTROLLER, _NOT_CONTROLLER), {})
        elif not self.config.inter_broker_protocol.at_least(2, 7):
            respond((ErrorCode.INVALID_REQUEST, "Feature versioning system is disabled."), {})
        else:
            updates = _feature_updates(req.feature_updates, version)
            self._on_controller(request, Event.UPDATE_FEATURES, lambda: self.controller.update_features(updates),
                                answer)

    def handle_alter_partition_reassignments(self, request: Request) -> None:
        req = request.body
        wanted = {(t.name, p.partition_index): (list(p.replicas) if p.replicas is not None else None)
                  for t in req.topics for p in t.partitions}
        if not self._cluster_allowed(request, AclOperation.ALTER):  # Kafka: the error at the top and per partition
            denied = ErrorCode.CLUSTER_AUTHORIZATION_FAILED
            request.send_response(AlterPartitionReassignmentsResponse(
                throttle_time_ms=0, error_code=denied, error_message=_AUTH_MESSAGES[denied], responses=[
                    ReassignableTopicResponse(name=t.name, partitions=[ReassignablePartitionResponse(
                        partition_index=p.partition_index, error_code=denied, error_message=_AUTH_MESSAGES[denied])
                        for p in t.partitions])
                    for t in req.topics]))
            return

        def respond(results: dict[tuple[str, int], tuple[int, str]]) -> None:
            by_topic: dict[str, list[ReassignablePartitionResponse]] = {}
            for (topic, partition), (code, message) in results.items():
                by_topic.setdefault(topic, []).append(ReassignablePartitionResponse(
                    partition_index=partition, error_code=code, error_message=message or None))
            request.send_response(AlterPartitionReassignmentsResponse(
                throttle_time_ms=0, error_code=0, error_message="", responses=[
                    ReassignableTopicResponse(name=t, partitions=ps) for t, ps in by_topic.items()]))

        if self._not_controller():
            respond({k: (ErrorCode.NOT_CONTROLLER, _NOT_CONTROLLER)
                     for k in wanted})
            return
        self._on_controller(request, Event.API_PARTITION_REASSIGNMENT,
                            lambda: self.controller.alter_reassignments(wanted), respond)

    def handle_list_partition_reassignments(self, request: Request) -> None:
        req = request.body
        if not self._cluster_allowed(request, AclOperation.DESCRIBE):
            request.send_response(ListPartitionReassignmentsResponse(
                throttle_time_ms=0, error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
                error_message=_AUTH_MESSAGES[ErrorCode.CLUSTER_AUTHORIZATION_FAILED], topics=[]))
            return
        if self._not_controller():
            request.send_response(ListPartitionReassignmentsResponse(
                throttle_time_ms=0, error_code=ErrorCode.NOT_CONTROLLER, error_message=None, topics=[]))
            return
        wanted = None if req.topics is None else {(t.name, p) for t in req.topics for p in t.partition_indexes}

        def respond(ongoing: dict[tuple[str, int], tuple[list[int], list[int], list[int]]]) -> None:
            by_topic: dict[str, list[OngoingPartitionReassignment]] = {}
            for (topic, partition), (replicas, adding, removing) in sorted(ongoing.items()):
                if wanted is None or (topic, partition) in wanted:
                    by_topic.setdefault(topic, []).append(OngoingPartitionReassignment(
                        partition_index=partition, replicas=replicas, adding_replicas=adding,
                        removing_replicas=removing))
            request.send_response(ListPartitionReassignmentsResponse(
                throttle_time_ms=0, error_code=0, error_message="", topics=[
                    OngoingTopicReassignment(name=t, partitions=ps) for t, ps in by_topic.items()]))

        self._on_controller(request, Event.LIST_PARTITION_REASSIGNMENTS, self.controller.ongoing_reassignments, respond)

    # -- controller-to-broker requests (ZooKeeper mode) ----------------------------------

    def _from_controller(self, request: Request) -> bool:
        """Controller requests must carry this broker's epoch (KIP-380): an older one was
        meant for an earlier incarnation, anything else is not from the controller.
        Versions older than the field carry none: Kafka's isBrokerEpochStale accepts them,
        josefk only in a cluster at inter.broker.protocol.version < 2.2, whose controllers
        send such versions (in a newer one they can only be forged)."""
        if request.api_version < _BROKER_EPOCH_SINCE[ApiKey(request.api_key)]:
            return not self.config.inter_broker_protocol.at_least(2, 2)
        request_epoch = request.body.broker_epoch
        if self.broker_epoch.accepts(request_epoch):
            return True
        log.warning("Rejected %s from %s (controller %d): broker epoch %d, ours is %d",
                    ApiKey(request.api_key).name, request.client_host, request.body.controller_id, request_epoch,
                    self.broker_epoch.epoch)
        return False

    def handle_leader_and_isr(self, request: Request) -> None:
        req, version = request.body, request.api_version
        states = states_from_leader_and_isr(req, version)
        result = LeaderAndIsrResult(ErrorCode.STALE_BROKER_EPOCH)
        if not self._cluster_allowed(request, AclOperation.CLUSTER_ACTION):
            result = LeaderAndIsrResult(ErrorCode.CLUSTER_AUTHORIZATION_FAILED)
        elif self._from_controller(request):
            leaders = [BrokerInfo(b.broker_id, b.host_name, b.port) for b in req.live_leaders]
            result = self.replica_manager.leader_and_isr(req.controller_id, req.controller_epoch, states, leaders)
        errors = [LeaderAndIsrPartitionError(topic_name=s.topic, partition_index=s.partition,
                                             error_code=result.error_for(s.topic, s.partition)) for s in states]
        if version < 5:
            request.send_response(LeaderAndIsrResponse(error_code=result.error, partition_errors=errors))
            return
        by_topic: dict[UUID, list[LeaderAndIsrPartitionError]] = {}  # v5+ answers per topic id
        for state, error in zip(states, errors, strict=True):
            by_topic.setdefault(state.topic_id or ZERO_UUID, []).append(error)
        request.send_response(LeaderAndIsrResponse(error_code=result.error, topics=[
            LeaderAndIsrTopicError(topic_id=topic_id, partition_errors=errors)
            for topic_id, errors in by_topic.items()]))

    def handle_update_metadata(self, request: Request) -> None:
        req, version = request.body, request.api_version
        error = ErrorCode.STALE_BROKER_EPOCH
        if not self._cluster_allowed(request, AclOperation.CLUSTER_ACTION):
            error = ErrorCode.CLUSTER_AUTHORIZATION_FAILED
        elif self._from_controller(request):
            brokers, states = from_update_metadata(req, version)
            error = self.replica_manager.update_metadata(req.controller_id, req.controller_epoch, brokers, states)
        request.send_response(UpdateMetadataResponse(error_code=error))
        if self.metadata_cache.generation > 0:
            self._answer_held_metadata()

    def handle_stop_replica(self, request: Request) -> None:
        """v3+ say per partition whether to delete it: one StopReplica may do both."""
        req, version = request.body, request.api_version
        partitions = stop_replica_partitions(req, version)
        error = ErrorCode.STALE_BROKER_EPOCH
        if not self._cluster_allowed(request, AclOperation.CLUSTER_ACTION):
            error = ErrorCode.CLUSTER_AUTHORIZATION_FAILED
        elif self._from_controller(request):
            for delete in (False, True):
                chosen = [(t, p) for t, p, d in partitions if d == delete]
                if chosen:
                    error = self.replica_manager.stop_replica(req.controller_epoch, chosen, delete)
                    if error != ErrorCode.NONE:
                        break
            else:
                error = ErrorCode.NONE
        request.send_response(StopReplicaResponse(error_code=error, partition_errors=[
            StopReplicaPartitionError(topic_name=t, partition_index=p, error_code=error)
            for t, p, _delete in partitions]))

    def handle_alter_partition(self, request: Request) -> None:
        """A leader asks this broker's controller for a new ISR (KIP-497). v2+ name topics
        by id, v3+ give each ISR member's broker epoch (-1: not known, not checked)."""
        req, version = request.body, request.api_version
        if not self._cluster_allowed(request, AclOperation.CLUSTER_ACTION):
            request.send_response(AlterPartitionResponse(throttle_time_ms=0,
                                                         error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED))
            return
        if self._not_controller():
            request.send_response(AlterPartitionResponse(throttle_time_ms=0, error_code=ErrorCode.NOT_CONTROLLER))
            return
        changes, unknown = [], []
        for topic in req.topics:
            name = self.metadata_cache.topic_by_id(topic.topic_id) if version >= 2 else topic.topic_name
            for p in topic.partitions:
                if name is None:
                    unknown.append((topic, p.partition_index))
                    continue
                isr = [b.broker_id for b in p.new_isr_with_epochs] if version >= 3 else list(p.new_isr)
                changes.append(IsrRequest(name, p.partition_index, p.leader_epoch, p.partition_epoch, isr))

        def respond(answer: tuple[ErrorCode, list[IsrResult]]) -> None:
            error, results = answer
            by_topic: dict[str, list[AlterPartitionData]] = {}
            for r in results:
                by_topic.setdefault(r.topic, []).append(AlterPartitionData(
                    partition_index=r.partition, error_code=r.error, leader_id=r.leader, leader_epoch=r.leader_epoch,
                    isr=r.isr, leader_recovery_state=0, partition_epoch=r.partition_epoch))
            topics = [TopicData(topic_name=t, topic_id=self.metadata_cache.topic_ids.get(t, ZERO_UUID), partitions=ps)
                      for t, ps in by_topic.items()]
            for topic, index in unknown:
                topics.append(TopicData(topic_name=topic.topic_name, topic_id=topic.topic_id or ZERO_UUID, partitions=[
                    AlterPartitionData(partition_index=index, error_code=ErrorCode.UNKNOWN_TOPIC_ID, leader_id=-1,
                                       leader_epoch=-1, isr=[], partition_epoch=-1)]))
            request.send_response(AlterPartitionResponse(throttle_time_ms=0, error_code=error,
                                                         topics=topics if error == 0 else []))

        self._on_controller(request, Event.ALTER_PARTITION,
                            lambda: self.controller.alter_partition(req.broker_id, req.broker_epoch, changes, version),
                            respond)

    def handle_allocate_producer_ids(self, request: Request) -> None:
        """A Kafka broker (inter.broker.protocol.version 3.0 and later) asks the controller
        for a block of producer ids instead of reserving it in ZooKeeper itself; the
        controller reserves it in the same /latest_producer_id_block (KIP-730)."""
        req = request.body
        if not self._cluster_allowed(request, AclOperation.CLUSTER_ACTION):
            request.send_response(AllocateProducerIdsResponse(
                throttle_time_ms=0, error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED, producer_id_start=-1,
                producer_id_len=0))
            return

        def work() -> tuple[ErrorCode, int, int]:
            error = self.controller.registration_error(req.broker_id, req.broker_epoch)
            if error != ErrorCode.NONE:
                return error, -1, 0
            try:
                first, last = reserve_producer_id_block(self.controller.store, req.broker_id)
            except Exception as e:  # noqa: BLE001 - Kafka answers Errors.forException(e), not a closed connection
                log.warning("Could not reserve a producer id block for broker %d: %r", req.broker_id, e)
                return ErrorCode.UNKNOWN_SERVER_ERROR, -1, 0
            return ErrorCode.NONE, first, last - first + 1

        def respond(answer: tuple[ErrorCode, int, int]) -> None:
            error, first, length = answer
            request.send_response(AllocateProducerIdsResponse(throttle_time_ms=0, error_code=error,
                                                              producer_id_start=first, producer_id_len=length))

        self._on_controller(request, Event.ALLOCATE_PRODUCER_IDS, work, respond)

    def handle_controlled_shutdown(self, request: Request) -> None:
        if not self._cluster_allowed(request, AclOperation.CLUSTER_ACTION):
            request.send_response(ControlledShutdownResponse(error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED))
            return
        if self._not_controller():
            request.send_response(ControlledShutdownResponse(error_code=ErrorCode.NOT_CONTROLLER))
            return
        req = request.body
        broker_epoch = req.broker_epoch if request.api_version >= 2 else -1

        def respond(result: tuple[int, list[tuple[str, int]]]) -> None:
            code, remaining = result
            request.send_response(ControlledShutdownResponse(error_code=code, remaining_partitions=[
                RemainingPartition(topic_name=t, partition_index=p) for t, p in remaining]))

        self._on_controller(request, Event.CONTROLLED_SHUTDOWN,
                            lambda: self.controller.controlled_shutdown(req.broker_id, broker_epoch), respond)
