"""AlterPartitionManager: a leader's ISR changes sent to the controller (KIP-497).

Since Kafka 2.7 (inter.broker.protocol.version 2.7 and later) a leader does not write the
partition state in ZooKeeper itself: it asks the controller with AlterPartition, and the
controller writes the state, answers the committed ISR and partition epoch (the state
znode's version) and tells the other brokers with UpdateMetadata. A Kafka controller only
accepts ISR changes this way. As Kafka's manager, one request is in flight at a time and
carries every change queued meanwhile; a request that cannot reach the controller (none
known yet, moved, connection lost) is sent again after a backoff.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from josefk.clients.network_client import PLAINTEXT, BrokerConnection, ClientSecurity
from josefk.protocol.errors import ErrorCode
from josefk.protocol.inter_broker import InterBrokerProtocol
from josefk.protocol.messages.codec import ZERO_UUID
from josefk.protocol.messages.generated.alter_partition_request import (
    AlterPartitionRequest,
    BrokerState,
    PartitionData,
    TopicData,
)
from josefk.protocol.messages.generated.alter_partition_response import AlterPartitionResponse
from josefk.protocol.messages.generated.api_versions_request import ApiVersionsRequest
from josefk.protocol.messages.generated.api_versions_response import ApiVersionsResponse
from josefk.protocol.messages.generated.registry import ApiKey
from josefk.zk.zk_data import BrokerInfo

log = logging.getLogger(__name__)

RETRY_BACKOFF_S = 0.1
MAX_BACKOFF_S = 1.0
REQUEST_TIMEOUT_S = 30.0
# Top-level answers that mean "ask again" (the controller moved, or does not know our
# registration yet); any other top-level error fails the whole batch.
RETRIABLE = {ErrorCode.NOT_CONTROLLER, ErrorCode.STALE_BROKER_EPOCH, ErrorCode.REQUEST_TIMED_OUT}


@dataclass
class IsrChange:
    """One leader's request: the ISR it wants, at the leader epoch and partition epoch it holds."""

    topic: str
    partition: int
    topic_id: uuid.UUID | None
    leader_epoch: int
    partition_epoch: int
    new_isr: list[int]
    # (error, committed partition epoch or None): called once, on the event loop.
    done: Callable[[ErrorCode, int | None], None]


def request_version(negotiated: int, changes: list[IsrChange]) -> int:
    """The AlterPartition version for one batch: v2 and later name topics by id only, so a
    batch with a partition whose topic has no id yet (created below IBP 2.8, before the
    controller of a rolling upgrade gave it one) goes at v1 by name, as Kafka's
    AlterPartitionManager.buildRequest does."""
    return min(negotiated, 1) if any(c.topic_id is None for c in changes) else negotiated


class AlterPartitionManager:
    def __init__(self, broker_id: int, broker_epoch: Callable[[], int], controller: Callable[[], BrokerInfo | None],
                 protocol: InterBrokerProtocol, security: ClientSecurity = PLAINTEXT) -> None:
        """`controller()` is the controller as this broker's metadata knows it (UpdateMetadata
        names it, as Kafka's MetadataCacheControllerNodeProvider); `broker_epoch()` this
        broker's registration epoch, which the controller checks."""
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self.controller = controller
        self.protocol = protocol
        self.security = security
        self.max_version = protocol.alter_partition_version
        self.version: int | None = None  # negotiated with the controller on each new connection
        self.pending: dict[tuple[str, int], IsrChange] = {}
        self.wakeup = asyncio.Event()
        self.connection: BrokerConnection | None = None
        self.task: asyncio.Task | None = None

    def submit(self, change: IsrChange) -> None:
        self.pending[(change.topic, change.partition)] = change
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run(), name="alter-partition-manager")
        self.wakeup.set()

    async def _run(self) -> None:
        backoff = RETRY_BACKOFF_S
        while True:
            if not self.pending:
                self.wakeup.clear()
                await self.wakeup.wait()
                continue
            batch, self.pending = self.pending, {}
            try:
                sent = await self._send(list(batch.values()))
            except (OSError, TimeoutError, ConnectionError, EOFError, asyncio.IncompleteReadError) as e:
                log.info("AlterPartition to the controller failed (%r); retrying", e)
                self.version = None  # the next connection may reach another broker on that address
                sent = False
            if sent:
                backoff = RETRY_BACKOFF_S
                continue
            for key, change in batch.items():
                self.pending.setdefault(key, change)  # a newer change for the partition wins
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_S)

    def _connection_to(self, controller: BrokerInfo) -> BrokerConnection:
        current = self.connection
        if current is None or (current.host, current.port) != (controller.host, controller.port):
            if current is not None:
                current.close()
            current = self.connection = BrokerConnection(controller.host, controller.port,
                                                         f"broker-{self.broker_id}-alter-partition", self.security)
            self.version = None
        return current

    async def _negotiate(self, connection: BrokerConnection) -> int | None:
        """The highest AlterPartition version the IBP allows that the controller serves (its
        ApiVersions answer, as Kafka's NetworkClient picks it): a Kafka 2.8 controller has
        AlterIsr v0 only and closes the connection on anything newer. None if it has none."""
        if self.version is None:
            answer = await connection.request(ApiKey.ApiVersions, 0, ApiVersionsRequest(), timeout=REQUEST_TIMEOUT_S)
            assert isinstance(answer, ApiVersionsResponse)
            served = next((k for k in answer.api_keys if k.api_key == ApiKey.AlterPartition), None)
            if served is None or served.min_version > self.max_version:
                return None
            self.version = min(self.max_version, served.max_version)
        return self.version

    def _request(self, changes: list[IsrChange], version: int) -> AlterPartitionRequest:
        """Topics by name below v2, by id from v2; the ISR as broker ids below v3, with broker
        epochs from v3 (KIP-903): -1 for every member, as Kafka 3.9 sends them in ZooKeeper
        mode (its Partition.addBrokerEpochToIsr fills in the epochs followers report in their
        fetches only with a KRaft metadata cache, and the ZooKeeper controller checks none of
        them, only the requesting leader's own broker_epoch)."""
        by_topic: dict[tuple[str, uuid.UUID | None], list[PartitionData]] = {}
        for c in changes:
            partition = PartitionData(partition_index=c.partition, leader_epoch=c.leader_epoch,
                                      leader_recovery_state=0, partition_epoch=c.partition_epoch)
            if version < 3:
                partition.new_isr = c.new_isr
            else:
                partition.new_isr_with_epochs = [BrokerState(broker_id=r, broker_epoch=-1) for r in c.new_isr]
            by_topic.setdefault((c.topic, c.topic_id), []).append(partition)
        return AlterPartitionRequest(broker_id=self.broker_id, broker_epoch=self.broker_epoch(), topics=[
            TopicData(topic_name=topic, topic_id=topic_id or ZERO_UUID, partitions=partitions)
            for (topic, topic_id), partitions in by_topic.items()])

    async def _send(self, changes: list[IsrChange]) -> bool:
        """One AlterPartition with `changes`; False if it must be sent again."""
        controller = self.controller()
        if controller is None:
            return False
        connection = self._connection_to(controller)
        version = await self._negotiate(connection)
        if version is None:
            log.warning("Controller %d serves no AlterPartition version up to %d; retrying", controller.broker_id,
                        self.max_version)
            return False
        version = request_version(version, changes)
        response = await connection.request(ApiKey.AlterPartition, version, self._request(changes, version),
                                            timeout=REQUEST_TIMEOUT_S)
        assert isinstance(response, AlterPartitionResponse)
        top = ErrorCode(response.error_code)
        if top in RETRIABLE:
            log.info("AlterPartition answered %s by controller %d; retrying", top.name, controller.broker_id)
            return False
        by_key = {((c.topic_id if version >= 2 else c.topic), c.partition): c for c in changes}
        for topic in response.topics:
            name_or_id = topic.topic_id if version >= 2 else topic.topic_name
            for p in topic.partitions:
                change = by_key.pop((name_or_id, p.partition_index), None)
                if change is None:
                    continue
                error = top if top != ErrorCode.NONE else ErrorCode(p.error_code)
                committed = error == ErrorCode.NONE and sorted(p.isr) == sorted(change.new_isr)
                if error == ErrorCode.NONE and not committed:
                    log.info("%s-%d: the controller committed ISR %s, not %s", change.topic, change.partition,
                             list(p.isr), change.new_isr)
                change.done(error, p.partition_epoch if committed else None)
        for change in by_key.values():  # not in the answer: Kafka's manager fails them too
            change.done(top if top != ErrorCode.NONE else ErrorCode.UNKNOWN_SERVER_ERROR, None)
        return True

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.connection is not None:
            self.connection.close()
