"""Transaction verification by partition leaders (KIP-890 part 1): before a transactional
batch opens a transaction on a partition, the leader asks the producer's transaction
coordinator (AddPartitionsToTxn v4, verify_only) whether the partition is in its ongoing
transaction. A batch arriving after its transaction ended, or for a partition never added,
would otherwise open a transaction no marker ever ends (a hanging transaction, holding the
last stable offset back). replication.add_partitions_to_txn_manager batches the checks per
coordinator; this module finds the coordinators and carries the requests.

When the coordinator is this broker, it is asked in-process (`local`) where Kafka sends the
request to its own listener: the same coordinator call (verify_partitions) and the same
error mapping as its answer to a request, without the encoding, the socket round trip and
the wait in the request queue behind every client's requests. As the broker's own
principal, the check skips the request's authorization (CLUSTER_ACTION, and WRITE on the id
and topics, which the producer's own request was already authorized for)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from josefk.clients.network_client import PLAINTEXT, AuthenticationFailed, BrokerConnections, ClientSecurity
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.add_partitions_to_txn_request import AddPartitionsToTxnRequest
from josefk.protocol.messages.generated.add_partitions_to_txn_response import AddPartitionsToTxnResponse
from josefk.protocol.messages.generated.registry import ApiKey
from josefk.replication.add_partitions_to_txn_manager import (
    VERIFY_VERSION,
    AddPartitionsToTxnManager,
    SendResult,
    leader_error,
)
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.replica_manager import TopicPartition
from josefk.utils.scheduler import LOOP_SCHEDULER, Scheduler
from josefk.utils.time import SYSTEM_TIME, Time

log = logging.getLogger(__name__)


class NetworkVerificationSender:
    """add_partitions_to_txn_manager.VerificationSender over one connection per coordinator."""

    def __init__(self, broker_id: int, metadata_cache: MetadataCache, security: ClientSecurity = PLAINTEXT) -> None:
        self.metadata_cache = metadata_cache
        self._connections = BrokerConnections(f"broker-{broker_id}-verification", security)
        self._tasks: set[asyncio.Task[SendResult]] = set()

    def send(self, node: int, request: AddPartitionsToTxnRequest, timeout_ms: int,
             done: Callable[[SendResult], None]) -> None:
        task = asyncio.get_running_loop().create_task(self._send(node, request, timeout_ms))
        self._tasks.add(task)  # the loop keeps only a weak reference
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(lambda t: None if t.cancelled() else done(self._result(node, t)))

    @staticmethod
    def _result(node: int, task: asyncio.Task[SendResult]) -> SendResult:
        """The request's result; a failure of this code answers its checks rather than leave
        the node's later checks waiting for a request that never ends."""
        error = task.exception()
        if error is None:
            return task.result()
        log.error("AddPartitionsToTxn to broker %d failed", node, exc_info=error)
        return SendResult(None, ErrorCode.UNKNOWN_SERVER_ERROR)

    async def _send(self, node: int, request: AddPartitionsToTxnRequest, timeout_ms: int) -> SendResult:
        broker = self.metadata_cache.brokers.get(node)
        if broker is None:  # gone since the check was asked: as a disconnect
            return SendResult(None, ErrorCode.NETWORK_EXCEPTION)
        try:
            response = await self._connections.get(node, broker.host, broker.port).request(
                ApiKey.AddPartitionsToTxn, VERIFY_VERSION, request, timeout=timeout_ms / 1000)
        except AuthenticationFailed as e:
            log.error("AddPartitionsToTxn to broker %d failed authentication: %s", node, e)
            return SendResult(None, ErrorCode.SASL_AUTHENTICATION_FAILED)
        except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError) as e:
            log.debug("AddPartitionsToTxn to broker %d failed: %r", node, e)
            return SendResult(None, ErrorCode.NETWORK_EXCEPTION)
        assert isinstance(response, AddPartitionsToTxnResponse)
        return SendResult(response)

    async def shutdown(self) -> None:
        """Cancel the requests out, then close the connections."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._connections.close()


class LocalCoordinator(Protocol):
    """This broker's transaction coordinator (coordinator.transaction_coordinator)."""

    def verify_partitions(self, transactional_id: str, producer_id: int, producer_epoch: int,
                          partitions: set[TopicPartition]) -> tuple[ErrorCode, dict[TopicPartition, ErrorCode]]:
        """The answer to AddPartitionsToTxn verify_only: a transaction-level error and no
        partitions, or each partition's."""
        ...


class TransactionVerifier:
    """replication.replica_manager.TransactionVerification: the broker's
    AddPartitionsToTxnManager, its coordinators found in the metadata cache."""

    def __init__(self, broker_id: int, metadata_cache: MetadataCache,
                 state_partition: Callable[[str], TopicPartition], security: ClientSecurity = PLAINTEXT,
                 request_timeout_ms: int = 30_000, time: Time = SYSTEM_TIME,
                 scheduler: Scheduler = LOOP_SCHEDULER) -> None:
        """`state_partition(transactional_id)`: the __transaction_state partition of an id,
        as the transaction coordinator maps ids (the coordinator's layer knows how, not
        this one); `request_timeout_ms`: request.timeout.ms. `local`, this broker's
        coordinator, is set once the coordinator is made."""
        self.broker_id = broker_id
        self.local: LocalCoordinator | None = None
        self.metadata_cache = metadata_cache
        self.state_partition = state_partition
        self.sender = NetworkVerificationSender(broker_id, metadata_cache, security)
        self.manager = AddPartitionsToTxnManager(self._coordinator, self.sender, request_timeout_ms, time, scheduler)

    def _coordinator(self, transactional_id: str) -> int | None:
        state = self.metadata_cache.partition(*self.state_partition(transactional_id))
        if state is None or state.leader not in self.metadata_cache.brokers:
            return None
        return state.leader

    def verify_transaction(self, transactional_id: str, producer_id: int, producer_epoch: int,
                           partitions: list[TopicPartition],
                           callback: Callable[[dict[TopicPartition, ErrorCode]], None], add: bool = False) -> None:
        """`add`: the leader adds the partitions to the transaction (Produce v12+), which only a
        request does; a verification whose coordinator is this broker is answered in-process."""
        if not add and self.local is not None and self._coordinator(transactional_id) == self.broker_id:
            error, verified = self.local.verify_partitions(transactional_id, producer_id, producer_epoch,
                                                           set(partitions))
            callback({tp: leader_error(e) for tp, e in (verified or dict.fromkeys(partitions, error)).items()})
            return
        self.manager.verify_transaction(transactional_id, producer_id, producer_epoch, partitions, callback, add)

    def close(self) -> None:
        self.manager.close()

    async def shutdown(self) -> None:
        self.manager.close()
        await self.sender.shutdown()
