"""The admin APIs of ZooKeeper-mode Kafka's KafkaApis: topics (CreateTopics, DeleteTopics,
CreatePartitions, DeleteRecords), log dirs, and what the active controller decides (leader
elections, reassignments, features). DescribeCluster is here too, as the admin client's
view of the cluster. Configs are ConfigApis'.

Topic changes run on the store executor and are answered once the metadata cache shows
them, waiting in a purgatory as Kafka's DelayedCreatePartitions and DelayedDeleteTopics do; the controller's
decisions run as controller events (ViaController)."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Callable
from concurrent.futures import Executor

from josefk.controller.controller import KafkaController
from josefk.controller.controller_events import ControllerEventKind as Event
from josefk.controller.controller_events import ControllerEventManager
from josefk.protocol.acl import AclOperation
from josefk.protocol.authorizer import Authorizer
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.messages.codec import ZERO_UUID, ApiMessage
from josefk.protocol.messages.generated.alter_partition_reassignments_request import AlterPartitionReassignmentsRequest
from josefk.protocol.messages.generated.alter_partition_reassignments_response import (
    AlterPartitionReassignmentsResponse,
    ReassignablePartitionResponse,
    ReassignableTopicResponse,
)
from josefk.protocol.messages.generated.alter_replica_log_dirs_request import AlterReplicaLogDirsRequest
from josefk.protocol.messages.generated.alter_replica_log_dirs_response import (
    AlterReplicaLogDirPartitionResult,
    AlterReplicaLogDirsResponse,
    AlterReplicaLogDirTopicResult,
)
from josefk.protocol.messages.generated.create_partitions_request import CreatePartitionsRequest
from josefk.protocol.messages.generated.create_partitions_response import (
    CreatePartitionsResponse,
    CreatePartitionsTopicResult,
)
from josefk.protocol.messages.generated.create_topics_request import CreateTopicsRequest
from josefk.protocol.messages.generated.create_topics_response import (
    CreatableTopicConfigs,
    CreatableTopicResult,
    CreateTopicsResponse,
)
from josefk.protocol.messages.generated.delete_records_request import DeleteRecordsRequest
from josefk.protocol.messages.generated.delete_records_response import (
    DeleteRecordsPartitionResult,
    DeleteRecordsResponse,
    DeleteRecordsTopicResult,
)
from josefk.protocol.messages.generated.delete_topics_request import DeleteTopicsRequest
from josefk.protocol.messages.generated.delete_topics_response import DeletableTopicResult, DeleteTopicsResponse
from josefk.protocol.messages.generated.describe_cluster_request import DescribeClusterRequest
from josefk.protocol.messages.generated.describe_cluster_response import (
    DescribeClusterBroker,
    DescribeClusterResponse,
)
from josefk.protocol.messages.generated.describe_log_dirs_request import DescribeLogDirsRequest
from josefk.protocol.messages.generated.describe_log_dirs_response import (
    DescribeLogDirsPartition,
    DescribeLogDirsResponse,
    DescribeLogDirsResult,
    DescribeLogDirsTopic,
)
from josefk.protocol.messages.generated.elect_leaders_request import ElectLeadersRequest
from josefk.protocol.messages.generated.elect_leaders_response import ElectLeadersResponse, ReplicaElectionResult
from josefk.protocol.messages.generated.elect_leaders_response import PartitionResult as ElectionPartitionResult
from josefk.protocol.messages.generated.list_partition_reassignments_request import ListPartitionReassignmentsRequest
from josefk.protocol.messages.generated.list_partition_reassignments_response import (
    ListPartitionReassignmentsResponse,
    OngoingPartitionReassignment,
    OngoingTopicReassignment,
)
from josefk.protocol.messages.generated.update_features_request import FeatureUpdateKey, UpdateFeaturesRequest
from josefk.protocol.messages.generated.update_features_response import (
    UpdatableFeatureResult,
    UpdateFeaturesResponse,
)
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.purgatory import DelayedOperation, DelayedOperationPurgatory
from josefk.replication.replica_manager import ReplicaManager
from josefk.server.config import SOURCE_DEFAULT_CONFIG, KafkaConfig
from josefk.server.controller_apis import NOT_CONTROLLER, ViaController
from josefk.server.network.request_channel import Request
from josefk.server.quotas.client_quota_manager import ControllerMutationQuota
from josefk.server.quotas.throttler import QuotaThrottler
from josefk.server.store_apis import AUTH_MESSAGES, Handler, api
from josefk.utils.java_format import hashed_map_order, java_string_hash
from josefk.zk.admin_zk_client import TopicAdmin
from josefk.zk.feature_znode import (
    SAFE_DOWNGRADE,
    UNKNOWN_UPGRADE,
    UNSAFE_DOWNGRADE,
    UPGRADE,
    FeatureUpdate,
    InvalidFeatureUpdate,
)

log = logging.getLogger(__name__)


def _feature_updates(keys: list[FeatureUpdateKey], version: int) -> list[FeatureUpdate]:
    """The request's updates as Kafka's UpdateFeaturesRequest.featureUpdates reads them: each
    entry by its name, so a repeated name is read as its first entry every time; v0's
    allow_downgrade is a safe downgrade, v1's upgrade type an unknown one outside 1-3."""
    first: dict[str, FeatureUpdateKey] = {}
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


class DelayedTopicChange(DelayedOperation):
    """Kafka's DelayedCreatePartitions and DelayedDeleteTopics: done when each topic has
    at least its count of partitions, all with a leader, in the metadata cache (a count of
    0: the topic left it), or at the timeout; either way `then` answers."""

    def __init__(self, cache: MetadataCache, partitions: dict[str, int], timeout_ms: int,
                 then: Callable[[], None]) -> None:
        super().__init__(timeout_ms)
        self.cache = cache
        self.partitions = partitions
        self.then = then

    def try_complete(self) -> bool:
        topics = self.cache.topics
        if all(len(topics.get(t, {})) >= count and all(s.leader >= 0 for s in topics.get(t, {}).values())
               if count else t not in topics for t, count in self.partitions.items()):
            return self.force_complete()
        return False

    def on_complete(self) -> None:
        self.then()


class AdminApis(ViaController):
    def __init__(self, config: KafkaConfig, cluster_id: str, metadata_cache: MetadataCache,
                 replica_manager: ReplicaManager, admin: TopicAdmin, controller: KafkaController,
                 controller_events: ControllerEventManager, throttler: QuotaThrottler, authorizer: Authorizer,
                 store_executor: Executor) -> None:
        super().__init__(controller, controller_events, authorizer, store_executor)
        self.config = config
        self.cluster_id = cluster_id
        self.metadata_cache = metadata_cache
        self.replica_manager = replica_manager
        self.admin = admin
        self.throttler = throttler
        self.topic_purgatory = DelayedOperationPurgatory("topic")
        replica_manager.add_metadata_listener(self._topics_changed)

    def handlers(self) -> dict[int, Handler]:
        return dict([
            api(CreateTopicsRequest, self.handle_create_topics),
            api(DeleteTopicsRequest, self.handle_delete_topics),
            api(CreatePartitionsRequest, self.handle_create_partitions),
            api(DeleteRecordsRequest, self.handle_delete_records),
            api(DescribeLogDirsRequest, self.handle_describe_log_dirs),
            api(AlterReplicaLogDirsRequest, self.handle_alter_replica_log_dirs),
            api(DescribeClusterRequest, self.handle_describe_cluster),
            api(ElectLeadersRequest, self.handle_elect_leaders),
            api(AlterPartitionReassignmentsRequest, self.handle_alter_partition_reassignments),
            api(ListPartitionReassignmentsRequest, self.handle_list_partition_reassignments),
            api(UpdateFeaturesRequest, self.handle_update_features),
        ])

    def handle_describe_cluster(self, request: Request[DescribeClusterRequest]) -> None:
        cache = self.metadata_cache
        brokers = [DescribeClusterBroker(broker_id=b.broker_id, host=e.host, port=e.port, rack=b.rack)
                   for b, e in cache.brokers_on(request.listener_name)]
        request.send_response(DescribeClusterResponse(
            throttle_time_ms=0, error_code=0, error_message=None, endpoint_type=1, cluster_id=self.cluster_id,
            controller_id=cache.controller_id, brokers=brokers, cluster_authorized_operations=self._cluster_operations(
                request, request.body.include_cluster_authorized_operations)))


    def handle_create_topics(self, request: Request[CreateTopicsRequest]) -> None:
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
                        raise KafkaError(ErrorCode.NOT_CONTROLLER, NOT_CONTROLLER)
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
                    configs=self._creatable_configs({c.name: c.value for c in t.configs if c.value is not None})
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

        self._off_loop(request, work, respond)

    def _send_mutations_response(self, request: Request[ApiMessage], quota: ControllerMutationQuota,
                                 body: CreateTopicsResponse | DeleteTopicsResponse | CreatePartitionsResponse) -> None:
        self.throttler.throttle_mutations(request, quota, body)
        request.send_response(body)

    def _when_in_metadata(self, partitions: dict[str, int], timeout_ms: int, then: Callable[[], None]) -> None:
        """Kafka answers CreateTopics and CreatePartitions once the new partitions have
        leaders in its metadata cache, DeleteTopics once the topics left it (a count of 0);
        the controller gets there asynchronously, on its own thread."""
        self.topic_purgatory.try_complete_else_watch(
            DelayedTopicChange(self.metadata_cache, partitions, max(timeout_ms, 0), then), list(partitions))

    def _topics_changed(self, topics: set[str]) -> None:
        for topic in topics:
            self.topic_purgatory.check(topic)

    def _creatable_configs(self, overrides: dict[str, str]) -> list[CreatableTopicConfigs]:
        effective = {**self.config.topic_defaults(), **overrides}

        def source(name: str, value: str) -> int:  # Kafka's: its first synonym's, as in DescribeConfigs
            synonyms = self.config.topic_synonyms(name, overrides, value)
            return synonyms[0][2] if synonyms else SOURCE_DEFAULT_CONFIG

        return [CreatableTopicConfigs(
            name=name, value=value, read_only=False, config_source=source(name, value), is_sensitive=False)
            for name, value in sorted(effective.items())]

    def handle_delete_topics(self, request: Request[DeleteTopicsRequest]) -> None:
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

        self._off_loop(request, work, respond)

    def handle_create_partitions(self, request: Request[CreatePartitionsRequest]) -> None:
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

        self._off_loop(request, work, respond)

    def handle_delete_records(self, request: Request[DeleteRecordsRequest]) -> None:
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

    def handle_describe_log_dirs(self, request: Request[DescribeLogDirsRequest]) -> None:
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

    def handle_alter_replica_log_dirs(self, request: Request[AlterReplicaLogDirsRequest]) -> None:
        """Move replicas to other log dirs of this broker (ReplicaManager.alter_replica_log_dirs);
        the answer comes at once, the data moves in the background."""
        dirs = {(t.name, p): d.path for d in request.body.dirs for t in d.topics for p in t.partitions}
        by_topic: dict[str, list[AlterReplicaLogDirPartitionResult]] = {}
        for (topic, index), error in self.replica_manager.alter_replica_log_dirs(dirs).items():
            by_topic.setdefault(topic, []).append(AlterReplicaLogDirPartitionResult(partition_index=index,
                                                                                    error_code=error))
        request.send_response(AlterReplicaLogDirsResponse(throttle_time_ms=0, results=[
            AlterReplicaLogDirTopicResult(topic_name=t, partitions=ps) for t, ps in by_topic.items()]))

    def handle_elect_leaders(self, request: Request[ElectLeadersRequest]) -> None:
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
            respond({k: (ErrorCode.NOT_CONTROLLER, NOT_CONTROLLER)
                     for k in keys})
            return
        wanted = None if req.topic_partitions is None else [
            (t.topic, p) for t in req.topic_partitions for p in t.partitions]
        unclean = version >= 1 and req.election_type == 1
        self._on_controller(request, Event.REPLICA_LEADER_ELECTION,
                            lambda: self.controller.elect_leaders(wanted, unclean), respond)

    def handle_update_features(self, request: Request[UpdateFeaturesRequest]) -> None:
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
                respond((ErrorCode.NOT_CONTROLLER, NOT_CONTROLLER), {})
            else:
                respond((ErrorCode.NONE, None), outcomes)

        if not self._cluster_allowed(request, AclOperation.ALTER):
            denied = ErrorCode.CLUSTER_AUTHORIZATION_FAILED
            respond((denied, AUTH_MESSAGES[denied]), {})
        elif self._not_controller():
            respond((ErrorCode.NOT_CONTROLLER, NOT_CONTROLLER), {})
        elif not self.config.inter_broker_protocol.at_least(2, 7):
            respond((ErrorCode.INVALID_REQUEST, "Feature versioning system is disabled."), {})
        else:
            updates = _feature_updates(req.feature_updates, version)
            self._on_controller(request, Event.UPDATE_FEATURES, lambda: self.controller.update_features(updates),
                                answer)

    def handle_alter_partition_reassignments(self, request: Request[AlterPartitionReassignmentsRequest]) -> None:
        req = request.body
        wanted = {(t.name, p.partition_index): (list(p.replicas) if p.replicas is not None else None)
                  for t in req.topics for p in t.partitions}
        if not self._cluster_allowed(request, AclOperation.ALTER):  # Kafka: the error at the top and per partition
            denied = ErrorCode.CLUSTER_AUTHORIZATION_FAILED
            request.send_response(AlterPartitionReassignmentsResponse(
                throttle_time_ms=0, error_code=denied, error_message=AUTH_MESSAGES[denied], responses=[
                    ReassignableTopicResponse(name=t.name, partitions=[ReassignablePartitionResponse(
                        partition_index=p.partition_index, error_code=denied, error_message=AUTH_MESSAGES[denied])
                        for p in t.partitions])
                    for t in req.topics]))
            return

        def respond(results: dict[tuple[str, int], tuple[int, str]]) -> None:
            by_topic: dict[str, list[ReassignablePartitionResponse]] = {}
            for (topic, partition), (code, message) in results.items():
                by_topic.setdefault(topic, []).append(ReassignablePartitionResponse(
                    partition_index=partition, error_code=code, error_message=message or None))
            request.send_response(AlterPartitionReassignmentsResponse(
                throttle_time_ms=0, allow_replication_factor_change=allow_change, error_code=0,
                error_message="" if request.api_version < 1 else None,  # Kafka 4's KRaft controller: null
                responses=[ReassignableTopicResponse(name=t, partitions=ps) for t, ps in by_topic.items()]))

        allow_change = req.allow_replication_factor_change if request.api_version >= 1 else True
        if self._not_controller():
            respond({k: (ErrorCode.NOT_CONTROLLER, NOT_CONTROLLER)
                     for k in wanted})
            return
        self._on_controller(request, Event.API_PARTITION_REASSIGNMENT,
                            lambda: self.controller.alter_reassignments(wanted, allow_change), respond)

    def handle_list_partition_reassignments(self, request: Request[ListPartitionReassignmentsRequest]) -> None:
        req = request.body
        if not self._cluster_allowed(request, AclOperation.DESCRIBE):
            request.send_response(ListPartitionReassignmentsResponse(
                throttle_time_ms=0, error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
                error_message=AUTH_MESSAGES[ErrorCode.CLUSTER_AUTHORIZATION_FAILED], topics=[]))
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

