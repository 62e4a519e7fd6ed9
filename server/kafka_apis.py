"""KafkaApis: one handler per API key, turning decoded requests into responses.

Handlers run on the event loop and never block on the network: a request that must wait
(a long-poll fetch) hands a callback to the purgatory and returns. An API is advertised
in ApiVersions exactly when `handlers` maps it (see protocol/apis.py for the ranges).
KafkaApis serves the data plane (produce, fetch, offsets, transaction markers); the
handler classes it takes in serve the rest: MetadataApis, AdminApis, ConfigApis,
ControllerApis, and the coordinators', ACLs', quotas' and SASL's through extra_handlers.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Hashable, Iterable, Mapping
from concurrent.futures import Executor
from typing import cast

from josefk.controller.controller import KafkaController
from josefk.controller.controller_events import ControllerEventManager
from josefk.protocol.acl import AclOperation, ResourceType
from josefk.protocol.apis import ApiKey, ApiVersions
from josefk.protocol.authorizer import ALLOW_ALL, Authorizer
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.messages.generated.api_versions_request import ApiVersionsRequest
from josefk.protocol.messages.generated.api_versions_response import (
    ApiVersion,
    ApiVersionsResponse,
    FinalizedFeatureKey,
    SupportedFeatureKey,
)
from josefk.protocol.messages.generated.describe_producers_request import DescribeProducersRequest
from josefk.protocol.messages.generated.describe_producers_response import (
    DescribeProducersResponse,
    ProducerState,
    TopicResponse,
)
from josefk.protocol.messages.generated.describe_producers_response import (
    PartitionResponse as ProducersPartitionResponse,
)
from josefk.protocol.messages.generated.fetch_request import FetchRequest
from josefk.protocol.messages.generated.fetch_response import (
    FetchResponse,
)
from josefk.protocol.messages.generated.list_offsets_request import ListOffsetsRequest
from josefk.protocol.messages.generated.list_offsets_response import (
    ListOffsetsPartitionResponse,
    ListOffsetsResponse,
    ListOffsetsTopicResponse,
)
from josefk.protocol.messages.generated.metadata_request import MetadataRequest
from josefk.protocol.messages.generated.offset_for_leader_epoch_request import OffsetForLeaderEpochRequest
from josefk.protocol.messages.generated.offset_for_leader_epoch_response import (
    EpochEndOffset as LeaderEpochEndOffset,
)
from josefk.protocol.messages.generated.offset_for_leader_epoch_response import (
    OffsetForLeaderEpochResponse,
    OffsetForLeaderTopicResult,
)
from josefk.protocol.messages.generated.produce_request import ProduceRequest, TopicProduceData
from josefk.protocol.messages.generated.write_txn_markers_request import WriteTxnMarkersRequest
from josefk.protocol.messages.generated.write_txn_markers_response import (
    WritableTxnMarkerPartitionResult,
    WritableTxnMarkerResult,
    WritableTxnMarkerTopicResult,
    WriteTxnMarkersResponse,
)
from josefk.protocol.produce_response import PartitionResult, encode_produce_response
from josefk.protocol.records import first_batch_is_transactional
from josefk.replication.fetch_session import (
    FINAL_EPOCH,
    INVALID_SESSION_ID,
    CachedPartition,
    FetchManager,
    FetchSessionCache,
    PartitionRequest,
)
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.partition import FetchIsolation
from josefk.replication.replica_manager import (
    AppendResult,
    FetchPartition,
    FetchResult,
    ReplicaManager,
    TopicPartition,
)
from josefk.replication.replication_quota import UNBOUNDED_QUOTA, ReplicaQuota
from josefk.replication.txn_marker_writer import TxnMarkerWriter
from josefk.server.admin_apis import AdminApis
from josefk.server.config import KafkaConfig
from josefk.server.config_apis import ConfigApis
from josefk.server.controller_apis import ControllerApis
from josefk.server.fetch_response import FetchKey, FetchPlan, FetchResponseAssembler, TopicKey
from josefk.server.metadata_apis import MetadataApis
from josefk.server.network.request_channel import Request
from josefk.server.quotas.client_quota_manager import QuotaManagers
from josefk.server.quotas.throttler import QuotaThrottler
from josefk.server.store_apis import Handler, StoreApis, api
from josefk.zk.admin_zk_client import TopicAdmin, validate_topic_name
from josefk.zk.feature_znode import supported_features
from josefk.zk.zk_data import BrokerEpoch

log = logging.getLogger(__name__)

# From Produce v12 a transactional producer (on transactions v2, KIP-890 part 2) leaves adding a
# partition to its transaction to the leader, which asks the coordinator to add it.
ADD_PARTITIONS_PRODUCE_VERSION = 12

# Produce errors Kafka answers without an error_message: its LogAppendResult carries a message
# only for a RecordValidationException (per-record INVALID_RECORD / INVALID_TIMESTAMP); a batch
# over max.message.bytes or failing its CRC, or a transactional batch outside its transaction,
# is thrown plain, so the message is null.
_PRODUCE_ERRORS_WITHOUT_MESSAGE = frozenset({ErrorCode.MESSAGE_TOO_LARGE, ErrorCode.RECORD_LIST_TOO_LARGE,
                                             ErrorCode.CORRUPT_MESSAGE, ErrorCode.INVALID_TXN_STATE})


def _now_ms() -> int:
    return int(time.time() * 1000)


def _has_transactional_batch(topic_data: Iterable[TopicProduceData]) -> bool:
    """Whether any partition's records start with a transactional batch (a loop, not any()
    over a generator: every Produce request asks)."""
    for t in topic_data:
        for p in t.partition_data:
            if p.records is not None and first_batch_is_transactional(p.records):
                return True
    return False


def _list_offsets_partition(version: int, index: int, error: int, offset: int, timestamp: int,
                            epoch: int) -> ListOffsetsPartitionResponse:
    """One ListOffsets answer with what its version carries: v0 a list of offsets (none for
    -1), v1+ the offset and its timestamp, v4+ its leader epoch."""
    if version == 0:
        return ListOffsetsPartitionResponse(partition_index=index, error_code=error,
                                            old_style_offsets=[offset] if offset >= 0 else [])
    return ListOffsetsPartitionResponse(partition_index=index, error_code=error, timestamp=timestamp, offset=offset,
                                        leader_epoch=epoch if version >= 4 else -1)


class KafkaApis(StoreApis):
    def __init__(self, config: KafkaConfig, cluster_id: str, metadata_cache: MetadataCache,
                 replica_manager: ReplicaManager, admin: TopicAdmin,
                 controller: KafkaController, controller_events: ControllerEventManager,
                 broker_epoch: BrokerEpoch, store_executor: Executor, extra_handlers: Mapping[int, Handler],
                 txn_marker_writer: TxnMarkerWriter | None = None, authorizer: Authorizer = ALLOW_ALL,
                 quotas: QuotaManagers | None = None,
                 finalized_features: Callable[[], tuple[int, dict[str, int]]] = lambda: (-1, {})) -> None:
        """`store_executor` runs what calls the coordination store (admin requests, auto
        topic creation) off the event loop. Metadata, the admin APIs, the config APIs and
        the controller's requests have handler classes of their own, made here.
        `extra_handlers` serve the APIs of other components (the group and transaction
        coordinators'); with this class's own they make api_versions, what the broker
        advertises. `txn_marker_writer` appends WriteTxnMarkers' markers (the broker's, shared
        with its transaction coordinator, carries the group coordinator's hook; one without
        a hook if None). `authorizer` decides what each request's principal may do
        (everything, without an authorizer); `quotas` are the client quota managers (fresh
        ones, with no quota set, if None); `finalized_features()` the /feature znode's
        version and features, for ApiVersions."""
        super().__init__(authorizer, store_executor)
        self.config = config
        self.quotas = quotas if quotas is not None else QuotaManagers.create()
        self.throttler = QuotaThrottler(self.quotas)
        self.finalized_features = finalized_features
        self.cluster_id = cluster_id
        self.metadata_cache = metadata_cache
        self.replica_manager = replica_manager
        self.admin = admin
        self.txn_marker_writer = txn_marker_writer or TxnMarkerWriter(replica_manager, config["request.timeout.ms"])
        self.fetch_responses = FetchResponseAssembler(replica_manager)
        self.fetch_manager = FetchManager(FetchSessionCache(config["max.incremental.fetch.session.cache.slots"]))
        self.metadata_apis = MetadataApis(config, cluster_id, metadata_cache, admin, authorizer, store_executor)
        self.admin_apis = AdminApis(config, cluster_id, metadata_cache, replica_manager, admin, controller,
                                    controller_events, self.throttler, authorizer, store_executor)
        self.config_apis = ConfigApis(config, replica_manager, admin, authorizer, store_executor)
        self.controller_apis = ControllerApis(config, metadata_cache, replica_manager, controller, controller_events,
                                              broker_epoch, authorizer, store_executor,
                                              self.metadata_apis.answer_held)
        # The dispatch table: one typed entry per API (store_apis.api pairs each handler with its
        # request class); the handler classes' own tables, then the other components', override.
        self.handlers: dict[int, Handler] = {
            **dict([
                api(ApiVersionsRequest, self.handle_api_versions),
                api(MetadataRequest, self.metadata_apis.handle_metadata),
                api(ProduceRequest, self.handle_produce),
                api(FetchRequest, self.handle_fetch),
                api(ListOffsetsRequest, self.handle_list_offsets),
                api(OffsetForLeaderEpochRequest, self.handle_offset_for_leader_epoch),
                api(WriteTxnMarkersRequest, self.handle_write_txn_markers),
                api(DescribeProducersRequest, self.handle_describe_producers),
            ]),
            **self.admin_apis.handlers(),
            **self.config_apis.handlers(),
            **self.controller_apis.handlers(),
            **extra_handlers,
        }
        self.api_versions = ApiVersions.for_apis(self.handlers)

    def handle(self, request: Request[ApiMessage]) -> None:
        self.throttler.attach(request)
        try:
            self.handlers[request.api_key](request)
        except Exception:
            log.exception("Error handling %s v%d from %s (client %s); closing the connection",
                          ApiKey(request.api_key).name, request.api_version, request.client_host,
                          request.header.client_id)
            request.close_connection()

    # -- ApiVersions ----------------------------------------------------------------------

    def _api_versions_target_error(self, request: Request[ApiVersionsRequest]) -> ErrorCode:
        """KIP-1242 (v5): a client names the cluster and node it means to reach, both or
        neither; elsewhere it is told to bootstrap again (its metadata is stale)."""
        req = request.body
        if request.api_version < 5 or (req.cluster_id is None and req.node_id == -1):
            return ErrorCode.NONE
        if req.cluster_id is None or req.node_id == -1:
            return ErrorCode.INVALID_REQUEST
        if req.cluster_id != self.cluster_id or req.node_id != self.config["broker.id"]:
            return ErrorCode.REBOOTSTRAP_REQUIRED
        return ErrorCode.NONE

    def handle_api_versions(self, request: Request[ApiVersionsRequest]) -> None:
        error = self._api_versions_target_error(request)
        if error != ErrorCode.NONE:
            request.send_response(ApiVersionsResponse(error_code=error, api_keys=[], throttle_time_ms=0))
            return
        keys = [ApiVersion(api_key=k, min_version=lo, max_version=hi)
                for k, (lo, hi) in self.api_versions.ranges.items()]
        epoch, features = self.finalized_features()  # v3+: the /feature znode's version and features
        supported = [SupportedFeatureKey(name=name, min_version=lo, max_version=hi) for name, (lo, hi) in
                     sorted(supported_features(self.config["unstable.feature.versions.enable"]).items())]
        request.send_response(ApiVersionsResponse(
            error_code=0, api_keys=keys, throttle_time_ms=0, supported_features=supported,
            finalized_features_epoch=epoch,
            finalized_features=[FinalizedFeatureKey(name=name, max_version_level=level, min_version_level=level)
                                for name, level in sorted(features.items())],
            zk_migration_ready=False))

    # -- Produce ------------------------------------------------------------------------

    def _produce_topic_names(self, request: Request[ProduceRequest]) -> list[str]:
        """Each topic's name: from v13 (KIP-516) looked up by its id, "" for an id no topic has
        (a name no topic can have), which is answered UNKNOWN_TOPIC_ID."""
        if request.api_version < 13:
            return [t.name for t in request.body.topic_data]
        return [self.metadata_cache.topic_by_id(t.topic_id) or "" for t in request.body.topic_data]

    def handle_produce(self, request: Request[ProduceRequest]) -> None:
        req = request.body
        errors: dict[TopicPartition, ErrorCode] = {}
        entries: dict[TopicPartition, bytes | memoryview] = {}
        names = self._produce_topic_names(request)
        if req.acks not in (-1, 0, 1):
            errors = {(name, p.index): ErrorCode.INVALID_REQUIRED_ACKS
                      for name, t in zip(names, req.topic_data, strict=True) for p in t.partition_data}
            self._produce_response(request, names, errors, {})
            return
        # As Kafka: transactional records need a transactional id this principal may write,
        # and only then is the id checked (an idempotent producer may send one unchecked).
        tid = req.transactional_id if request.api_version >= 3 else None
        txn_refused = _has_transactional_batch(req.topic_data) and (
            tid is None or not self._allowed(request, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, tid))
        writable = set() if txn_refused else self._topics_allowed(request, AclOperation.WRITE,
                                                                  [name for name in names if name])
        for name, t in zip(names, req.topic_data, strict=True):
            for p in t.partition_data:
                if txn_refused:
                    errors[(name, p.index)] = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
                elif not name:
                    errors[(name, p.index)] = ErrorCode.UNKNOWN_TOPIC_ID
                elif name not in writable:
                    errors[(name, p.index)] = ErrorCode.TOPIC_AUTHORIZATION_FAILED
                elif p.records is None:
                    errors[(name, p.index)] = ErrorCode.INVALID_RECORD
                else:
                    entries[(name, p.index)] = p.records
        try:
            self.replica_manager.handle_produce_append(
                entries, req.acks, _now_ms(), req.timeout_ms, tid, lambda results, unverified: self._produce_response(
                    request, names, errors, results, unverified), request,
                add_partitions=request.api_version >= ADD_PARTITIONS_PRODUCE_VERSION)
        except KafkaError as e:  # the whole request refused (several producers' transactional batches)
            self._produce_response(request, names, {}, {}, {key: AppendResult(e.code, message=e.message)
                                                            for key in errors | entries})

    def _produce_response(self, request: Request[ProduceRequest], names: list[str],
                          errors: dict[TopicPartition, ErrorCode],
                          results: dict[TopicPartition, AppendResult],
                          unverified: dict[TopicPartition, AppendResult] | None = None) -> None:
        """`names`: each topic's name (_produce_topic_names); `errors`: the partitions refused
        before the append; `unverified` those refused, with Kafka's message, after it;
        `results`: the appends'."""
        req = request.body
        throttle_ms = self.throttler.produce_throttle_ms(request, req.acks)
        if req.acks == 0:
            request.no_response()
            return
        refused: dict[TopicPartition, AppendResult] | None = None
        by_id = request.api_version >= 13
        topics: list[tuple[str | uuid.UUID, list[PartitionResult]]] = []
        counts: dict[int, int] = {}  # ErrorsPerSec: Kafka's ProduceResponse.errorCounts, one per partition
        for name, t in zip(names, req.topic_data, strict=True):
            parts = []
            for p in t.partition_data:
                result = results.get((name, p.index))
                if result is None:
                    if refused is None:
                        refused = {key: AppendResult(error) for key, error in errors.items()} | (unverified or {})
                    result = refused[(name, p.index)]
                    parts.append(PartitionResult(p.index, result.error, -1, -1, -1, result.message))
                elif result.error:
                    message = result.message if result.error not in _PRODUCE_ERRORS_WITHOUT_MESSAGE else None
                    parts.append(PartitionResult(p.index, result.error, result.base_offset, result.log_append_time,
                                                 result.log_start_offset, message))
                else:
                    parts.append(PartitionResult(p.index, 0, result.base_offset, result.log_append_time,
                                                 result.log_start_offset, None))
                error = result.error
                counts[error] = counts.get(error, 0) + 1
            topics.append((t.topic_id if by_id else name, parts))
        request.send_raw([encode_produce_response(request.api_version, topics, throttle_ms)], counts)

    # -- Fetch --------------------------------------------------------------------------

    def handle_fetch(self, request: Request[FetchRequest]) -> None:
        req, version = request.body, request.api_version
        plan = self._fetch_plan(request)
        if plan is None:
            return
        fetches: list[FetchPartition] = []
        refused = set(plan.refused)
        consumer = plan.replica_id < 0
        for key, part in plan.partitions:
            if key not in refused:
                topic, partition = cast(FetchKey, key)
                fetch = FetchPartition(cast(str, plan.names[topic]), partition, part.fetch_offset, part.max_bytes,
                                       part.last_fetched_epoch, part.current_leader_epoch)
                if consumer and isinstance(part, CachedPartition):  # what the session last told the consumer
                    fetch.session_high_watermark = part.high_watermark
                    fetch.session_log_start_offset = part.local_log_start_offset
                fetches.append(fetch)
        max_bytes = req.max_bytes if version >= 3 else 2**31 - 1
        if plan.replica_id < 0:  # a consumer never asks for more than its quota allows in one window
            max_bytes = int(min(max_bytes, self.throttler.fetch_max_bytes(request)))
        quota = self.replica_manager.quotas.leader if plan.replica_id >= 0 else UNBOUNDED_QUOTA
        # A consumer's empty partitions are answered QUIET: fetch_response.py writes them from v4
        self.replica_manager.fetch_messages(fetches, max_bytes, req.min_bytes, req.max_wait_ms, plan.replica_id,
                                            lambda results: self._send_fetch(request, plan, quota, results),
                                            plan.isolation_level, quota, quiet=consumer and version >= 4)

    def _fetch_plan(self, request: Request[FetchRequest]) -> FetchPlan | None:
        """The fetch session's context for the request and which of its partitions are read;
        None if the session refused the request (answered here)."""
        req, version = request.body, request.api_version
        if version >= 15:  # KIP-903 moved the replica id into a tagged field, absent for consumers
            replica_id = req.replica_state.replica_id if req.replica_state is not None else -1
        else:
            replica_id = req.replica_id
        # Session partitions are keyed by (topic id, partition) from v13, (name, partition) before.
        # (A field a version lacks decodes as its default, -1 for these.)
        fetch_data: dict[Hashable, PartitionRequest] = {}
        for t in req.topics:
            topic = t.topic_id if version >= 13 else t.topic
            for p in t.partitions:
                fetch_data[(topic, p.partition)] = PartitionRequest(
                    p.fetch_offset, p.partition_max_bytes, p.log_start_offset, p.last_fetched_epoch,
                    p.current_leader_epoch)
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
            return None
        # Names resolved once per topic, not per partition (a topic id lookup scans the cache).
        names: dict[TopicKey, str | None] = {}
        partitions = context.partitions()
        for topic in dict.fromkeys(cast(FetchKey, key)[0] for key, _part in partitions):
            names[topic] = self.metadata_cache.topic_by_id(topic) if isinstance(topic, uuid.UUID) else topic
        # Kafka: a follower needs CLUSTER_ACTION, a consumer READ on each topic; refused
        # partitions are answered TOPIC_AUTHORIZATION_FAILED without a read.
        readable: set[str]
        if replica_id >= 0:
            readable = {n for n in names.values() if n is not None} if self._cluster_allowed(
                request, AclOperation.CLUSTER_ACTION) else set()
        else:
            readable = self._topics_allowed(request, AclOperation.READ, names.values())
        served: list[Hashable] = []
        refused: list[Hashable] = []
        if all(name is not None and name in readable for name in names.values()):
            served = [key for key, _part in partitions]
        else:
            for key, _part in partitions:
                name = names[cast(FetchKey, key)[0]]
                (served if name is not None and name in readable else refused).append(key)
        return FetchPlan(version, replica_id, req.isolation_level if version >= 4 else 0, context, names,
                         self.metadata_cache.topic_ids, served, refused, partitions)

    def _send_fetch(self, request: Request[FetchRequest], plan: FetchPlan, quota: ReplicaQuota,
                    results: list[FetchResult]) -> None:
        """Answer the reads: a consumer over its quota gets an empty throttled response
        (follower fetches are exempt from client quotas, and count against the leader's
        replication quota instead)."""
        throttle_ms = 0
        if plan.replica_id < 0:
            throttle_ms = self.throttler.fetch_throttle_ms(request, sum(r.read.size for r in results
                                                                        if r.read is not None))
            if throttle_ms > 0:
                error, session = plan.context.throttled()
                request.send_response(FetchResponse(throttle_time_ms=throttle_ms, error_code=error,
                                                    session_id=session))
                return
        else:
            # Kafka's sizeOfThrottledPartitions: a throttled partition's bytes count against the
            # leader's quota whether or not its follower is in sync.
            quota.record(sum(r.read.size for r in results
                             if r.read is not None and quota.is_throttled((r.topic, r.partition))))
        request.send_raw(*self.fetch_responses.encode(plan, results, throttle_ms, request.header.flexible))

    # -- WriteTxnMarkers -------------------------------------------------------------------

    def handle_write_txn_markers(self, request: Request[WriteTxnMarkersRequest]) -> None:
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

        def answered(pid: int) -> Callable[[dict[tuple[str, int], ErrorCode]], None]:
            def done(by_partition: dict[tuple[str, int], ErrorCode]) -> None:
                nonlocal pending
                errors.setdefault(pid, {}).update(by_partition)
                pending -= 1
                if pending == 0:
                    send()
            return done

        if not markers:
            send()
            return
        for marker in markers:
            self.txn_marker_writer.write(marker.producer_id, marker.producer_epoch, marker.coordinator_epoch,
                                         marker.transaction_result,
                                         [(t.name, index) for t in marker.topics for index in t.partition_indexes],
                                         answered(marker.producer_id),
                                         marker.transaction_version if request.api_version >= 2 else 0)

    # -- DescribeProducers -----------------------------------------------------------------

    def handle_describe_producers(self, request: Request[DescribeProducersRequest]) -> None:
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

    def handle_list_offsets(self, request: Request[ListOffsetsRequest]) -> None:
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

    def handle_offset_for_leader_epoch(self, request: Request[OffsetForLeaderEpochRequest]) -> None:
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
