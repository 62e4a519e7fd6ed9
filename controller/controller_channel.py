"""The controller's channel to a remote broker: LeaderAndIsr, UpdateMetadata and
StopReplica on the wire, sent in order by one task per broker, retried until delivered
or the broker leaves, and the one request a broker sends its controller: ControlledShutdown.
Also the reading of those requests by the receiving broker's KafkaApis."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable

from josefk.clients.network_client import PLAINTEXT, BrokerConnection, ClientSecurity
from josefk.protocol.errors import ErrorCode
from josefk.protocol.inter_broker import LATEST_PROTOCOL, InterBrokerProtocol
from josefk.protocol.messages.codec import ZERO_UUID, ApiMessage
from josefk.protocol.messages.generated.controlled_shutdown_request import ControlledShutdownRequest
from josefk.protocol.messages.generated.controlled_shutdown_response import ControlledShutdownResponse
from josefk.protocol.messages.generated.leader_and_isr_request import (
    LeaderAndIsrLiveLeader,
    LeaderAndIsrPartitionState,
    LeaderAndIsrRequest,
    LeaderAndIsrTopicState,
)
from josefk.protocol.messages.generated.leader_and_isr_response import LeaderAndIsrResponse
from josefk.protocol.messages.generated.registry import ApiKey
from josefk.protocol.messages.generated.stop_replica_request import (
    StopReplicaPartitionState,
    StopReplicaPartitionV0,
    StopReplicaRequest,
    StopReplicaTopicState,
    StopReplicaTopicV1,
)
from josefk.protocol.messages.generated.stop_replica_response import StopReplicaResponse
from josefk.protocol.messages.generated.update_metadata_request import (
    UpdateMetadataBroker,
    UpdateMetadataEndpoint,
    UpdateMetadataPartitionState,
    UpdateMetadataRequest,
    UpdateMetadataTopicState,
)
from josefk.protocol.messages.generated.update_metadata_response import UpdateMetadataResponse
from josefk.zk.zk_data import BrokerInfo, EndPoint, PartitionState

log = logging.getLogger(__name__)

RETRY_BACKOFF_S = 0.1  # Kafka RequestSendThread's backoff between attempts to reach a broker

CONTROLLED_SHUTDOWN_VERSION = 3
# Kafka's SecurityProtocol ids, as UpdateMetadata carries them.
SECURITY_PROTOCOL_IDS = {"PLAINTEXT": 0, "SSL": 1, "SASL_PLAINTEXT": 2, "SASL_SSL": 3}


def _by_topic(states: list[PartitionState]) -> dict[str, list[PartitionState]]:
    topics: dict[str, list[PartitionState]] = {}
    for state in states:
        topics.setdefault(state.topic, []).append(state)
    return topics


def leader_and_isr_request(controller_id: int, controller_epoch: int, states: list[PartitionState],
                           live_brokers: list[BrokerInfo], broker_epoch: int = -1,
                           version: int = LATEST_PROTOCOL.leader_and_isr_version) -> LeaderAndIsrRequest:
    """v0-v1 list the partition states ungrouped, each naming its topic; v2+ group them by
    topic (with the topic's id from v5; a topic without one goes as the zero id)."""
    def partition_state(s: PartitionState) -> LeaderAndIsrPartitionState:
        return LeaderAndIsrPartitionState(
            topic_name=s.topic if version < 2 else "", partition_index=s.partition,
            controller_epoch=s.controller_epoch, leader=s.leader, leader_epoch=s.leader_epoch, isr=s.isr,
            partition_epoch=s.zk_version, replicas=s.replicas, is_new=s.is_new)

    leaders = {s.leader for s in states}
    request = LeaderAndIsrRequest(
        controller_id=controller_id, controller_epoch=controller_epoch, broker_epoch=broker_epoch,
        live_leaders=[LeaderAndIsrLiveLeader(broker_id=b.broker_id, host_name=b.host, port=b.port)
                      for b in live_brokers if b.broker_id in leaders])
    if version < 2:
        request.ungrouped_partition_states = [partition_state(s) for s in states]
    else:
        request.topic_states = [LeaderAndIsrTopicState(
            topic_name=topic, topic_id=group[0].topic_id or ZERO_UUID,
            partition_states=[partition_state(s) for s in group]) for topic, group in _by_topic(states).items()]
    return request


def update_metadata_request(controller_id: int, controller_epoch: int, live_brokers: list[BrokerInfo],
                            states: list[PartitionState], broker_epoch: int = -1,
                            version: int = LATEST_PROTOCOL.update_metadata_version) -> UpdateMetadataRequest:
    """v0-v4 list the partition states ungrouped, each naming its topic; v5+ group them by
    topic. A broker is its host and port at v0, its endpoints from v1."""
    live = {b.broker_id for b in live_brokers}

    def partition_state(s: PartitionState) -> UpdateMetadataPartitionState:
        return UpdateMetadataPartitionState(
            topic_name=s.topic if version < 5 else "", partition_index=s.partition,
            controller_epoch=s.controller_epoch, leader=s.leader, leader_epoch=s.leader_epoch, isr=s.isr,
            zk_version=s.zk_version, replicas=s.replicas,
            offline_replicas=[r for r in s.replicas if r not in live or r in s.offline_replicas])

    brokers = [UpdateMetadataBroker(id=b.broker_id, v0_host=b.host, v0_port=b.port, endpoints=[
        UpdateMetadataEndpoint(port=e.port, host=e.host, listener=e.listener,
                               security_protocol=SECURITY_PROTOCOL_IDS[e.security_protocol])
        for e in b.all_endpoints()], rack=b.rack) for b in live_brokers]
    request = UpdateMetadataRequest(controller_id=controller_id, controller_epoch=controller_epoch,
                                    broker_epoch=broker_epoch, live_brokers=brokers)
    if version < 5:
        request.ungrouped_partition_states = [partition_state(s) for s in states]
    else:
        request.topic_states = [UpdateMetadataTopicState(
            topic_name=topic, topic_id=group[0].topic_id or ZERO_UUID,
            partition_states=[partition_state(s) for s in group]) for topic, group in _by_topic(states).items()]
    return request


def _topic_id(value: uuid.UUID) -> uuid.UUID | None:
    """A topic id off the wire; the zero uuid (none sent, or a version without ids) is None."""
    return None if value == ZERO_UUID else value


def states_from_leader_and_isr(request: LeaderAndIsrRequest, version: int) -> list[PartitionState]:
    groups: list[tuple[str, uuid.UUID | None, list[LeaderAndIsrPartitionState]]]
    if version < 2:
        groups = [(s.topic_name, None, [s]) for s in request.ungrouped_partition_states]
    else:
        groups = [(t.topic_name, _topic_id(t.topic_id), t.partition_states) for t in request.topic_states]
    return [PartitionState(topic, s.partition_index, s.leader, s.leader_epoch, list(s.isr), list(s.replicas),
                           s.controller_epoch, s.partition_epoch, topic_id, is_new=bool(s.is_new))
            for topic, topic_id, parts in groups for s in parts]


def from_update_metadata(request: UpdateMetadataRequest, version: int) -> tuple[list[BrokerInfo],
                                                                                      list[PartitionState]]:
    brokers = []
    for b in request.live_brokers:
        if version == 0:
            brokers.append(BrokerInfo(b.id, b.v0_host, b.v0_port))
        else:
            names = {v: k for k, v in SECURITY_PROTOCOL_IDS.items()}
            endpoints = tuple(EndPoint(e.listener if version >= 3 else names[e.security_protocol], e.host, e.port,
                                       names.get(e.security_protocol, "PLAINTEXT")) for e in b.endpoints)
            first = endpoints[0]
            rack = b.rack if version >= 2 else None  # v0-v1 carry none (the generated default is "")
            brokers.append(BrokerInfo(b.id, first.host, first.port, rack, endpoints=endpoints))
    groups: list[tuple[str, uuid.UUID | None, list[UpdateMetadataPartitionState]]]
    if version < 5:
        groups = [(s.topic_name, None, [s]) for s in request.ungrouped_partition_states]
    else:
        groups = [(t.topic_name, _topic_id(t.topic_id), t.partition_states) for t in request.topic_states]
    states = [PartitionState(topic, s.partition_index, s.leader, s.leader_epoch, list(s.isr), list(s.replicas),
                             s.controller_epoch, s.zk_version, topic_id, list(s.offline_replicas or ()))
              for topic, topic_id, parts in groups for s in parts]
    return brokers, states


def stop_replica_request(controller_id: int, controller_epoch: int, broker_epoch: int,
                         partitions: list[tuple[str, int]], delete: bool,
                         version: int = LATEST_PROTOCOL.stop_replica_version) -> StopReplicaRequest:
    """The layout of `version`: v0 ungrouped partitions, v1-v2 one delete flag and partition
    lists by topic, v3+ a delete flag per partition (KIP-570)."""
    topics: dict[str, list[int]] = {}
    for topic, partition in partitions:
        topics.setdefault(topic, []).append(partition)
    request = StopReplicaRequest(controller_id=controller_id, controller_epoch=controller_epoch,
                                 broker_epoch=broker_epoch)
    if version == 0:
        request.delete_partitions = delete
        request.ungrouped_partitions = [StopReplicaPartitionV0(topic_name=t, partition_index=p)
                                        for t, p in partitions]
    elif version <= 2:
        request.delete_partitions = delete
        request.topics = [StopReplicaTopicV1(name=t, partition_indexes=ps) for t, ps in topics.items()]
    else:
        request.topic_states = [StopReplicaTopicState(topic_name=t, partition_states=[
            StopReplicaPartitionState(partition_index=p, leader_epoch=-1, delete_partition=delete) for p in ps])
            for t, ps in topics.items()]
    return request


def stop_replica_partitions(request: StopReplicaRequest,
                            version: int) -> list[tuple[str, int, bool]]:
    """(topic, partition, delete) of each partition a StopReplica names."""
    if version == 0:
        return [(p.topic_name, p.partition_index, request.delete_partitions) for p in request.ungrouped_partitions]
    if version <= 2:
        return [(t.name, p, request.delete_partitions) for t in request.topics for p in t.partition_indexes]
    return [(t.topic_name, p.partition_index, p.delete_partition) for t in request.topic_states
            for p in t.partition_states]


def leader_and_isr_errors(response: LeaderAndIsrResponse, version: int,
                          topic_names: dict[uuid.UUID, str]) -> dict[tuple[str, int], int]:
    """A LeaderAndIsr response's error per partition; v5+ names topics by id."""
    if version < 5:
        return {(e.topic_name, e.partition_index): e.error_code for e in response.partition_errors}
    return {(topic_names[t.topic_id], e.partition_index): e.error_code for t in response.topics
            if t.topic_id in topic_names for e in t.partition_errors}


async def request_controlled_shutdown(controller: BrokerInfo, broker_id: int, broker_epoch: int,
                                      security: ClientSecurity = PLAINTEXT) -> tuple[int, list[tuple[str, int]]]:
    """Send ControlledShutdown to the controller: (error code, partitions still led)."""
    connection = BrokerConnection(controller.host, controller.port, f"broker-{broker_id}", security)
    try:
        response = await connection.request(ApiKey.ControlledShutdown, CONTROLLED_SHUTDOWN_VERSION,
                                            ControlledShutdownRequest(broker_id=broker_id, broker_epoch=broker_epoch),
                                            timeout=30)
    finally:
        connection.close()
    assert isinstance(response, ControlledShutdownResponse)
    return response.error_code, [(p.topic_name, p.partition_index) for p in response.remaining_partitions]


class RemoteBrokerChannel:
    """BrokerControlPlane for a broker reached over the network. Made on the controller's
    thread; its requests are queued on the event loop (ControllerChannelManager posts
    every call there). Each request carries the broker's epoch, so an incarnation of the
    broker newer than the one this channel was made for ignores it (STALE_BROKER_EPOCH)."""

    def __init__(self, controller_id: int, broker: BrokerInfo, loop: asyncio.AbstractEventLoop,
                 on_response: Callable[[int, dict[tuple[str, int], int]], None] | None = None,
                 security: ClientSecurity = PLAINTEXT,
                 protocol: InterBrokerProtocol = LATEST_PROTOCOL) -> None:
        """`on_response(broker id, error per partition)` hears each LeaderAndIsr answer;
        `security` is how the broker's inter-broker listener is spoken, `protocol` the
        inter.broker.protocol.version whose request versions it sends."""
        self.protocol = protocol
        self.controller_id = controller_id
        self.broker = broker
        self.on_response = on_response
        self.connection = BrokerConnection(broker.host, broker.port, f"controller-{controller_id}", security)
        self.queue: asyncio.Queue[tuple[ApiKey, int, ApiMessage, dict[uuid.UUID, str]]] = asyncio.Queue()
        self.closed = False
        self.task = asyncio.run_coroutine_threadsafe(self._send_loop(), loop)

    def leader_and_isr(self, controller_id: int, controller_epoch: int, states: list[PartitionState],
                       live_brokers: list[BrokerInfo]) -> None:
        version = self.protocol.leader_and_isr_version
        body = leader_and_isr_request(controller_id, controller_epoch, states, live_brokers, self.broker.epoch,
                                      version)
        topic_names = {s.topic_id: s.topic for s in states if s.topic_id is not None}
        self.queue.put_nowait((ApiKey.LeaderAndIsr, version, body, topic_names))

    def update_metadata(self, controller_id: int, controller_epoch: int, live_brokers: list[BrokerInfo],
                        states: list[PartitionState]) -> None:
        version = self.protocol.update_metadata_version
        body = update_metadata_request(controller_id, controller_epoch, live_brokers, states, self.broker.epoch,
                                       version)
        self.queue.put_nowait((ApiKey.UpdateMetadata, version, body, {}))

    def stop_replica(self, controller_epoch: int, partitions: list[tuple[str, int]], delete: bool) -> None:
        version = self.protocol.stop_replica_version
        body = stop_replica_request(self.controller_id, controller_epoch, self.broker.epoch, partitions, delete,
                                    version)
        self.queue.put_nowait((ApiKey.StopReplica, version, body, {}))

    async def _send_loop(self) -> None:
        # `closed` as well as the cancellation: asyncio.wait_for (3.11) swallows a
        # cancellation that arrives as its request completes.
        while not self.closed:
            api_key, version, body, topic_names = await self.queue.get()
            while not self.closed:
                try:
                    response = await self.connection.request(api_key, version, body, timeout=30)
                    assert isinstance(response, (LeaderAndIsrResponse, UpdateMetadataResponse, StopReplicaResponse))
                    if isinstance(response, LeaderAndIsrResponse) and self.on_response is not None:
                        self.on_response(self.broker.broker_id,
                                         leader_and_isr_errors(response, version, topic_names))
                    if response.error_code != ErrorCode.NONE:
                        log.warning("Controller request %s to broker %d answered %s", ApiKey(api_key).name,
                                    self.broker.broker_id, ErrorCode(response.error_code).name)
                    break
                except (TimeoutError, OSError, ConnectionError, EOFError) as e:
                    if self.closed:  # closed under the request: nothing to retry
                        return
                    log.warning("Controller request %s to broker %d failed (%s); retrying",
                                ApiKey(api_key).name, self.broker.broker_id, e)
                    # Kafka's RequestSendThread backs off 100 ms: a broker that just started
                    # answers clients from an empty metadata cache until this reaches it.
                    await asyncio.sleep(RETRY_BACKOFF_S)

    def close(self) -> None:
        self.closed = True
        self.task.cancel()
        self.connection.close()
