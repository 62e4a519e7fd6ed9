"""Transaction verification by partition leaders (KIP-890 part 1, Kafka's
AddPartitionsToTxnManager): before a transactional batch opens a transaction on a
partition, the leader asks the producer's transaction coordinator (AddPartitionsToTxn v4,
verify_only) whether the partition is in its ongoing transaction. A batch arriving after
its transaction ended, or for a partition never added, would otherwise open a transaction
no marker ever ends (a hanging transaction, holding the last stable offset back)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from josefk.controller.network_client import PLAINTEXT, BrokerConnections, ClientSecurity
from josefk.coordinator.offsets_store import partition_for
from josefk.coordinator.transaction_log import TRANSACTION_STATE_TOPIC
from josefk.protocol.apis import ApiKey, request_class
from josefk.protocol.errors import ErrorCode
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.replica_manager import TopicPartition

log = logging.getLogger(__name__)

VERIFY_VERSION = 4  # the first with verify_only, which Kafka 3.9's leaders send too
_MANAGER_ERRORS = {ErrorCode.PRODUCER_FENCED: ErrorCode.INVALID_PRODUCER_EPOCH,
                   ErrorCode.CLUSTER_AUTHORIZATION_FAILED: ErrorCode.INVALID_TXN_STATE}


class TransactionVerifier:
    """replication.replica_manager.TransactionVerification over AddPartitionsToTxn requests."""

    def __init__(self, broker_id: int, metadata_cache: MetadataCache, txn_partitions: Callable[[], int],
                 security: ClientSecurity = PLAINTEXT, request_timeout_ms: int = 30_000) -> None:
        """`txn_partitions()`: how many partitions __transaction_state has, as the
        transaction coordinator maps ids."""
        self.broker_id = broker_id
        self.metadata_cache = metadata_cache
        self.txn_partitions = txn_partitions
        self.security = security
        self.request_timeout_s = request_timeout_ms / 1000
        self._connections = BrokerConnections(f"broker-{broker_id}-verification", security)

    async def verify(self, transactional_id: str, producer_id: int, producer_epoch: int,
                     partitions: list[TopicPartition]) -> dict[TopicPartition, ErrorCode]:
        """The coordinator's answer for each partition, as Kafka's AddPartitionsToTxnManager
        hands it on: a fenced producer is INVALID_PRODUCER_EPOCH, a refused cluster
        authorization INVALID_TXN_STATE (the client must not see it); the produce and
        TxnOffsetCommit paths each translate the retriable ones for their clients."""
        errors = await self._ask(transactional_id, producer_id, producer_epoch, partitions)
        return {tp: _MANAGER_ERRORS.get(e, e) for tp, e in errors.items()}

    async def _ask(self, transactional_id: str, producer_id: int, producer_epoch: int,
                   partitions: list[TopicPartition]) -> dict[TopicPartition, ErrorCode]:
        state = self.metadata_cache.partition(TRANSACTION_STATE_TOPIC,
                                              partition_for(transactional_id, self.txn_partitions()))
        if state is None or state.leader not in self.metadata_cache.brokers:
            return dict.fromkeys(partitions, ErrorCode.COORDINATOR_NOT_AVAILABLE)
        cls = request_class(ApiKey.AddPartitionsToTxn)
        by_topic: dict[str, list[int]] = {}
        for topic, p in partitions:
            by_topic.setdefault(topic, []).append(p)
        txn = cls.AddPartitionsToTxnTransaction(
            transactional_id=transactional_id, producer_id=producer_id, producer_epoch=producer_epoch,
            verify_only=True, topics=[cls.AddPartitionsToTxnTopic(name=t, partitions=ps) for t, ps in by_topic.items()])
        try:
            broker = self.metadata_cache.brokers[state.leader]
            response = await self._connections.get(state.leader, broker.host, broker.port).request(
                ApiKey.AddPartitionsToTxn, VERIFY_VERSION, cls(transactions=[txn]), timeout=self.request_timeout_s)
        except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError) as e:
            log.debug("Verifying %s with broker %d failed: %r", transactional_id, state.leader, e)
            return dict.fromkeys(partitions, ErrorCode.NETWORK_EXCEPTION)
        if response.error_code:
            return dict.fromkeys(partitions, ErrorCode(response.error_code))
        found: dict[TopicPartition, ErrorCode] = {}
        for result in response.results_by_transaction:
            for topic in result.topic_results:
                for p in topic.results_by_partition:
                    found[(topic.name, p.partition_index)] = ErrorCode(p.partition_error_code)
        return {tp: found.get(tp, ErrorCode.UNKNOWN_SERVER_ERROR) for tp in partitions}

    def close(self) -> None:
        self._connections.close()
