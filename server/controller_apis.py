"""The controller's requests (Kafka's ZooKeeper-mode KafkaApis handlers for them, what
KRaft moved to ControllerApis): the controller-to-broker RPCs every broker serves
(LeaderAndIsr, UpdateMetadata, StopReplica) and the broker-to-controller RPCs the active
controller serves (ControlledShutdown, AlterPartition, AllocateProducerIds).

`ViaController` is the shape of a handler class whose work runs as a controller event:
on the controller's thread, answered on the loop, so the controller's store round trips
never block request handling. AdminApis shares it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Executor
from typing import TypeVar
from uuid import UUID

from josefk.controller.controller import KafkaController
from josefk.controller.controller_channel import (
    from_update_metadata,
    states_from_leader_and_isr,
    stop_replica_partitions,
)
from josefk.controller.controller_events import ControllerEventKind as Event
from josefk.controller.controller_events import ControllerEventManager
from josefk.coordinator.producer_id_manager import reserve_block as reserve_producer_id_block
from josefk.protocol.acl import AclOperation
from josefk.protocol.apis import ApiKey
from josefk.protocol.authorizer import Authorizer
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ZERO_UUID, ApiMessage
from josefk.protocol.messages.generated.allocate_producer_ids_request import AllocateProducerIdsRequest
from josefk.protocol.messages.generated.allocate_producer_ids_response import AllocateProducerIdsResponse
from josefk.protocol.messages.generated.alter_partition_request import AlterPartitionRequest
from josefk.protocol.messages.generated.alter_partition_response import AlterPartitionResponse, TopicData
from josefk.protocol.messages.generated.alter_partition_response import PartitionData as AlterPartitionData
from josefk.protocol.messages.generated.controlled_shutdown_request import ControlledShutdownRequest
from josefk.protocol.messages.generated.controlled_shutdown_response import (
    ControlledShutdownResponse,
    RemainingPartition,
)
from josefk.protocol.messages.generated.leader_and_isr_request import LeaderAndIsrRequest
from josefk.protocol.messages.generated.leader_and_isr_response import (
    LeaderAndIsrPartitionError,
    LeaderAndIsrResponse,
    LeaderAndIsrTopicError,
)
from josefk.protocol.messages.generated.stop_replica_request import StopReplicaRequest
from josefk.protocol.messages.generated.stop_replica_response import StopReplicaPartitionError, StopReplicaResponse
from josefk.protocol.messages.generated.update_metadata_request import UpdateMetadataRequest
from josefk.protocol.messages.generated.update_metadata_response import UpdateMetadataResponse
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.replica_manager import ReplicaManager
from josefk.server.config import KafkaConfig
from josefk.server.network.request_channel import Request
from josefk.server.store_apis import Handler, StoreApis, api
from josefk.zk.zk_data import BrokerEpoch, BrokerInfo, IsrRequest, IsrResult, LeaderAndIsrResult

log = logging.getLogger(__name__)
T = TypeVar("T")

NOT_CONTROLLER = "This is not the correct controller for this cluster."
# The first version of each controller request that carries the broker epoch (KIP-380).
_BROKER_EPOCH_SINCE = {ApiKey.LeaderAndIsr: 2, ApiKey.UpdateMetadata: 5, ApiKey.StopReplica: 1}


class ViaController(StoreApis):
    """A handler class some of whose requests the active controller answers."""

    def __init__(self, controller: KafkaController, controller_events: ControllerEventManager,
                 authorizer: Authorizer, store_executor: Executor) -> None:
        super().__init__(authorizer, store_executor)
        self.controller = controller
        self.controller_events = controller_events

    def _not_controller(self) -> bool:
        return not self.controller.active

    def _on_controller(self, request: Request[ApiMessage], kind: Event, work: Callable[[], T],
                       respond: Callable[[T], None]) -> None:
        """Run `work` as a controller event, on the controller's thread, and answer on the loop."""
        self._answer_when(request, self.controller_events.put(kind, work), respond)


class ControllerApis(ViaController):
    def __init__(self, config: KafkaConfig, metadata_cache: MetadataCache, replica_manager: ReplicaManager,
                 controller: KafkaController, controller_events: ControllerEventManager, broker_epoch: BrokerEpoch,
                 authorizer: Authorizer, store_executor: Executor, on_metadata_update: Callable[[], None]) -> None:
        """`on_metadata_update()` hears of each UpdateMetadata applied once the cache has
        a generation: KafkaApis answers the Metadata requests it held until then."""
        super().__init__(controller, controller_events, authorizer, store_executor)
        self.config = config
        self.metadata_cache = metadata_cache
        self.replica_manager = replica_manager
        self.broker_epoch = broker_epoch
        self.on_metadata_update = on_metadata_update

    def handlers(self) -> dict[int, Handler]:
        return dict([
            api(LeaderAndIsrRequest, self.handle_leader_and_isr),
            api(UpdateMetadataRequest, self.handle_update_metadata),
            api(StopReplicaRequest, self.handle_stop_replica),
            api(ControlledShutdownRequest, self.handle_controlled_shutdown),
            api(AlterPartitionRequest, self.handle_alter_partition),
            api(AllocateProducerIdsRequest, self.handle_allocate_producer_ids),
        ])

    def _from_controller(self, request: Request[LeaderAndIsrRequest | UpdateMetadataRequest | StopReplicaRequest]
                         ) -> bool:
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

    def handle_leader_and_isr(self, request: Request[LeaderAndIsrRequest]) -> None:
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

    def handle_update_metadata(self, request: Request[UpdateMetadataRequest]) -> None:
        req, version = request.body, request.api_version
        error = ErrorCode.STALE_BROKER_EPOCH
        if not self._cluster_allowed(request, AclOperation.CLUSTER_ACTION):
            error = ErrorCode.CLUSTER_AUTHORIZATION_FAILED
        elif self._from_controller(request):
            brokers, states = from_update_metadata(req, version)
            error = self.replica_manager.update_metadata(req.controller_id, req.controller_epoch, brokers, states)
        request.send_response(UpdateMetadataResponse(error_code=error))
        if self.metadata_cache.generation > 0:
            self.on_metadata_update()

    def handle_stop_replica(self, request: Request[StopReplicaRequest]) -> None:
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

    def handle_alter_partition(self, request: Request[AlterPartitionRequest]) -> None:
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

    def handle_allocate_producer_ids(self, request: Request[AllocateProducerIdsRequest]) -> None:
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

    def handle_controlled_shutdown(self, request: Request[ControlledShutdownRequest]) -> None:
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
