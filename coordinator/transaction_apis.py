"""The transaction APIs' handlers (Kafka's KafkaApis handle*Txn*): decode a request, ask the
TransactionCoordinator, encode its answer at the request's version.

InitProducerId lives here for idempotent producers too, since both kinds draw producer
ids from the same ProducerIdManager.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass

from josefk.coordinator.group_request import GroupHandler, GroupRequest, group_api
from josefk.coordinator.producer_id_manager import ProducerIdManager
from josefk.coordinator.transaction_coordinator import TransactionCoordinator, TransactionDescription
from josefk.coordinator.transaction_log import TRANSACTION_STATE_TOPIC
from josefk.coordinator.transaction_metadata import (
    MAX_PRODUCER_EPOCH,
    NO_PRODUCER_EPOCH,
    NO_PRODUCER_ID,
    TV_0,
    TV_2,
    TransactionState,
)
from josefk.protocol.acl import CLUSTER_NAME, AclOperation, ResourceType
from josefk.protocol.apis import ApiKey
from josefk.protocol.authorizer import ALLOW_ALL, Authorizer
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.messages.generated.add_offsets_to_txn_request import AddOffsetsToTxnRequest
from josefk.protocol.messages.generated.add_offsets_to_txn_response import AddOffsetsToTxnResponse
from josefk.protocol.messages.generated.add_partitions_to_txn_request import AddPartitionsToTxnRequest
from josefk.protocol.messages.generated.add_partitions_to_txn_response import (
    AddPartitionsToTxnPartitionResult,
    AddPartitionsToTxnResponse,
    AddPartitionsToTxnResult,
    AddPartitionsToTxnTopicResult,
)
from josefk.protocol.messages.generated.describe_transactions_request import DescribeTransactionsRequest
from josefk.protocol.messages.generated.describe_transactions_response import (
    DescribeTransactionsResponse,
    TopicData,
)
from josefk.protocol.messages.generated.describe_transactions_response import (
    TransactionState as DescribedTransaction,
)
from josefk.protocol.messages.generated.end_txn_request import EndTxnRequest
from josefk.protocol.messages.generated.end_txn_response import EndTxnResponse
from josefk.protocol.messages.generated.init_producer_id_request import InitProducerIdRequest
from josefk.protocol.messages.generated.init_producer_id_response import InitProducerIdResponse
from josefk.protocol.messages.generated.list_transactions_request import ListTransactionsRequest
from josefk.protocol.messages.generated.list_transactions_response import ListTransactionsResponse
from josefk.protocol.messages.generated.list_transactions_response import (
    TransactionState as ListedTransaction,
)
from josefk.replication.metadata_cache import MetadataCache
from josefk.zk.admin_zk_client import TopicAdmin

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]
# The first EndTxn version of transactions v2 (KIP-890 part 2).
END_TXN_V2_VERSION = 5
# Request versions before KIP-588 know only INVALID_PRODUCER_EPOCH for a fenced producer.
_FENCED_ERROR_SINCE = {ApiKey.InitProducerId: 4, ApiKey.AddPartitionsToTxn: 2, ApiKey.AddOffsetsToTxn: 2,
                       ApiKey.EndTxn: 2, ApiKey.TxnOffsetCommit: 2}


def _for_version(api_key: ApiKey, version: int, error: ErrorCode) -> ErrorCode:
    if error == ErrorCode.PRODUCER_FENCED and version < _FENCED_ERROR_SINCE[api_key]:
        return ErrorCode.INVALID_PRODUCER_EPOCH
    return error


@dataclass(frozen=True)
class ProducerIdAllocation:
    """A producer id drawn for InitProducerId: the id, or NO_PRODUCER_ID and why not."""

    producer_id: int
    error: ErrorCode


@dataclass(frozen=True)
class TransactionTopicConfig:
    """How __transaction_state is created on first use (the transaction.state.log.* configs)."""

    num_partitions: int = 50
    replication_factor: int = 3
    min_isr: int = 2
    segment_bytes: int = 104_857_600


class TransactionApis:
    def __init__(self, coordinator: TransactionCoordinator, producer_ids: ProducerIdManager,
                 metadata_cache: MetadataCache, admin: TopicAdmin, store_executor: Executor,
                 topic_config: TransactionTopicConfig, offsets_partition_for: Callable[[str], int],
                 authorizer: Authorizer = ALLOW_ALL) -> None:
        """`store_executor` runs what calls the coordination store (creating
        __transaction_state); `offsets_partition_for` maps a group to its
        __consumer_offsets partition, for AddOffsetsToTxn; `authorizer` checks the
        transactional id, group, topic and cluster ACLs Kafka checks."""
        self.authorizer = authorizer
        self.coordinator = coordinator
        self.producer_ids = producer_ids
        self.metadata_cache = metadata_cache
        self.admin = admin
        self.store_executor = store_executor
        self.topic_config = topic_config
        self.offsets_partition_for = offsets_partition_for

    def handlers(self) -> dict[int, GroupHandler]:
        return dict([
            group_api(InitProducerIdRequest, self.handle_init_producer_id),
            group_api(AddPartitionsToTxnRequest, self.handle_add_partitions_to_txn),
            group_api(AddOffsetsToTxnRequest, self.handle_add_offsets_to_txn),
            group_api(EndTxnRequest, self.handle_end_txn),
            group_api(DescribeTransactionsRequest, self.handle_describe_transactions),
            group_api(ListTransactionsRequest, self.handle_list_transactions),
        ])

    def _txn_writable(self, request: GroupRequest[ApiMessage], tid: str) -> bool:
        return self.authorizer.authorize(request, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, tid)

    # -- FindCoordinator (key type 1) ------------------------------------------------------------

    def find_coordinator(self, transactional_id: str, listener: str) -> tuple[ErrorCode, int, str, int]:
        if not transactional_id:
            return ErrorCode.INVALID_REQUEST, -1, "", -1
        if TRANSACTION_STATE_TOPIC not in self.metadata_cache.topics:
            self.store_executor.submit(self._create_topic)
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, -1, "", -1
        state = self.metadata_cache.partition(TRANSACTION_STATE_TOPIC,
                                              self.coordinator.state.partition_for(transactional_id))
        broker = self.metadata_cache.brokers.get(state.leader) if state is not None else None
        endpoint = broker.endpoint(listener) if broker is not None else None
        if broker is None or endpoint is None:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, -1, "", -1
        return ErrorCode.NONE, broker.broker_id, endpoint.host, endpoint.port

    def _create_topic(self) -> None:
        """__transaction_state on first use, as Kafka creates it: compacted, its own min ISR,
        replication factor bounded by the live brokers (as josefk does for __consumer_offsets)."""
        config = self.topic_config
        rf = min(config.replication_factor, max(1, len(self.metadata_cache.brokers)))
        try:
            self.admin.create_topic(
                TRANSACTION_STATE_TOPIC, config.num_partitions, rf, None,
                {"cleanup.policy": "compact", "segment.bytes": str(config.segment_bytes),
                 "min.insync.replicas": str(min(config.min_isr, rf)), "compression.type": "uncompressed",
                 "unclean.leader.election.enable": "false"})
            log.info("Created %s with %d partitions and replication factor %d", TRANSACTION_STATE_TOPIC,
                     config.num_partitions, rf)
        except KafkaError as e:
            if e.code != ErrorCode.TOPIC_ALREADY_EXISTS:
                log.warning("Could not create %s: %s", TRANSACTION_STATE_TOPIC, e)

    # -- InitProducerId --------------------------------------------------------------------------

    def _allocate(self) -> ProducerIdAllocation:
        """Draw a producer id (at once: the ProducerIdManager never waits on the store). A
        failure is answered as Kafka's Errors.forException answers it: a KafkaError's own
        code (COORDINATOR_LOAD_IN_PROGRESS while no block is at hand)."""
        try:
            return ProducerIdAllocation(self.producer_ids.generate_producer_id(), ErrorCode.NONE)
        except KafkaError as e:
            return ProducerIdAllocation(NO_PRODUCER_ID, e.code)

    def handle_init_producer_id(self, request: GroupRequest[InitProducerIdRequest]) -> None:
        req, version = request.body, request.api_version

        def respond(error: ErrorCode, producer_id: int, epoch: int) -> None:
            request.send_response(InitProducerIdResponse(
                throttle_time_ms=0, producer_id=producer_id, producer_epoch=epoch,
                error_code=_for_version(ApiKey.InitProducerId, version, error)))

        expected = (req.producer_id, req.producer_epoch) if version >= 3 and req.producer_id >= 0 else None
        tid = req.transactional_id
        # Kafka: WRITE on the transactional id; an idempotent producer needs IDEMPOTENT_WRITE on
        # the cluster or WRITE on some topic (KIP-679).
        if tid is not None and not self._txn_writable(request, tid):
            respond(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, -1, -1)
            return
        if tid is None and not self.authorizer.authorize(
                request, AclOperation.IDEMPOTENT_WRITE, ResourceType.CLUSTER, CLUSTER_NAME) \
                and not self.authorizer.authorize_by_resource_type(request, AclOperation.WRITE, ResourceType.TOPIC):
            respond(ErrorCode.CLUSTER_AUTHORIZATION_FAILED, -1, -1)
            return
        if tid is None:
            if expected is not None and 0 <= expected[1] < MAX_PRODUCER_EPOCH - 1:  # KIP-360 epoch bump
                respond(ErrorCode.NONE, expected[0], expected[1] + 1)
                return
            got = self._allocate()
            respond(got.error, got.producer_id, 0 if got.error == ErrorCode.NONE else NO_PRODUCER_EPOCH)
            return
        timeout = req.transaction_timeout_ms

        got = self._allocate() if self.coordinator.wants_producer_id(tid) \
            else ProducerIdAllocation(NO_PRODUCER_ID, ErrorCode.NONE)
        self.coordinator.init_producer_id(tid, timeout, expected, got.producer_id, respond, got.error)

    # -- AddPartitionsToTxn / AddOffsetsToTxn -------------------------------------------------

    def _known(self, tp: TopicPartition) -> bool:
        return self.metadata_cache.partition(*tp) is not None

    def handle_add_partitions_to_txn(self, request: GroupRequest[AddPartitionsToTxnRequest]) -> None:
        req, version = request.body, request.api_version

        def topic_results(errors: dict[TopicPartition, ErrorCode]) -> list[AddPartitionsToTxnTopicResult]:
            by_topic: dict[str, list[AddPartitionsToTxnPartitionResult]] = {}
            for (topic, p), error in errors.items():
                by_topic.setdefault(topic, []).append(AddPartitionsToTxnPartitionResult(
                    partition_index=p, partition_error_code=_for_version(ApiKey.AddPartitionsToTxn, version, error)))
            return [AddPartitionsToTxnTopicResult(name=t, results_by_partition=ps) for t, ps in by_topic.items()]

        if version <= 3:
            partitions = [(t.name, p) for t in req.v3_and_below_topics for p in t.partitions]
            refusal = self._add_refusal(request, req.v3_and_below_transactional_id, partitions)
            if refusal is not None:
                request.send_response(AddPartitionsToTxnResponse(
                    throttle_time_ms=0, results_by_topic_v3_and_below=topic_results(refusal)))
                return
            self._add_partitions(req.v3_and_below_transactional_id, req.v3_and_below_producer_id,
                                 req.v3_and_below_producer_epoch, partitions, lambda errors: request.send_response(
                                     AddPartitionsToTxnResponse(
                                         throttle_time_ms=0, results_by_topic_v3_and_below=topic_results(errors))))
            return
        # v4+: several transactions at once (brokers verifying, KIP-890); answered when all are.
        results: dict[str, dict[TopicPartition, ErrorCode]] = {}
        pending = {txn.transactional_id for txn in req.transactions}

        def one_done(tid: str, errors: dict[TopicPartition, ErrorCode]) -> None:
            results[tid] = errors
            pending.discard(tid)
            if not pending:
                request.send_response(AddPartitionsToTxnResponse(
                    throttle_time_ms=0, error_code=ErrorCode.NONE, results_by_transaction=[
                        AddPartitionsToTxnResult(transactional_id=t, topic_results=topic_results(e))
                        for t, e in results.items()]))

        # v4+ comes from brokers (KIP-890): Kafka requires CLUSTER_ACTION.
        if not self.authorizer.authorize(request, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, CLUSTER_NAME):
            request.send_response(AddPartitionsToTxnResponse(
                throttle_time_ms=0, error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED, results_by_transaction=[]))
            return
        if not pending:
            request.send_response(AddPartitionsToTxnResponse(
                throttle_time_ms=0, error_code=ErrorCode.NONE, results_by_transaction=[]))
            return
        for txn in req.transactions:
            partitions = [(t.name, p) for t in txn.topics for p in t.partitions]
            refusal = self._add_refusal(request, txn.transactional_id, partitions)
            if refusal is not None:
                one_done(txn.transactional_id, refusal)
            elif txn.verify_only:
                error, verified = self.coordinator.verify_partitions(txn.transactional_id, txn.producer_id,
                                                                     txn.producer_epoch, set(partitions))
                one_done(txn.transactional_id, verified or dict.fromkeys(partitions, error))
            else:  # a leader adding a v2 producer's partition (Produce v12+): TV_2, as Kafka reads v4+
                self._add_partitions(txn.transactional_id, txn.producer_id, txn.producer_epoch, partitions,
                                     functools.partial(one_done, txn.transactional_id), TV_2)

    def _add_refusal(self, request: GroupRequest[ApiMessage], tid: str, partitions: list[TopicPartition]
                     ) -> dict[TopicPartition, ErrorCode] | None:
        """Kafka's checks before adding partitions: WRITE on the transactional id (else every
        partition is refused with TRANSACTIONAL_ID_AUTHORIZATION_FAILED), WRITE on each topic
        (refused ones TOPIC_AUTHORIZATION_FAILED, unknown ones UNKNOWN_TOPIC_OR_PARTITION,
        the rest OPERATION_NOT_ATTEMPTED); None when all pass."""
        if not self._txn_writable(request, tid):
            return dict.fromkeys(partitions, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED)
        writable = {t for t, _ in partitions
                    if self.authorizer.authorize(request, AclOperation.WRITE, ResourceType.TOPIC, t)}
        if all(t in writable for t, _ in partitions):
            return None
        return {tp: ErrorCode.TOPIC_AUTHORIZATION_FAILED if tp[0] not in writable
                else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION if not self._known(tp)
                else ErrorCode.OPERATION_NOT_ATTEMPTED for tp in partitions}

    def _add_partitions(self, tid: str, producer_id: int, producer_epoch: int, partitions: list[TopicPartition],
                        respond: Callable[[dict[TopicPartition, ErrorCode]], None],
                        client_transaction_version: int = TV_0) -> None:
        """Kafka checks every partition first: if one is unknown, none is added (the unknown
        ones get UNKNOWN_TOPIC_OR_PARTITION, the rest OPERATION_NOT_ATTEMPTED)."""
        unknown = {tp for tp in partitions if not self._known(tp)}
        if unknown:
            respond({tp: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION if tp in unknown else ErrorCode.OPERATION_NOT_ATTEMPTED
                     for tp in partitions})
            return
        self.coordinator.add_partitions(tid, producer_id, producer_epoch, set(partitions),
                                        lambda error: respond(dict.fromkeys(partitions, error)),
                                        client_transaction_version)

    def handle_add_offsets_to_txn(self, request: GroupRequest[AddOffsetsToTxnRequest]) -> None:
        req, version = request.body, request.api_version
        refusal = None
        if not self._txn_writable(request, req.transactional_id):
            refusal = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
        elif not self.authorizer.authorize(request, AclOperation.READ, ResourceType.GROUP, req.group_id):
            refusal = ErrorCode.GROUP_AUTHORIZATION_FAILED
        if refusal is not None:
            request.send_response(AddOffsetsToTxnResponse(throttle_time_ms=0, error_code=refusal))
            return
        tp = ("__consumer_offsets", self.offsets_partition_for(req.group_id))
        self.coordinator.add_partitions(req.transactional_id, req.producer_id, req.producer_epoch, {tp},
                                        lambda error: request.send_response(AddOffsetsToTxnResponse(
                                            throttle_time_ms=0,
                                            error_code=_for_version(ApiKey.AddOffsetsToTxn, version, error))))

    # -- EndTxn ---------------------------------------------------------------------------------

    def handle_end_txn(self, request: GroupRequest[EndTxnRequest]) -> None:
        """v5 and later come from producers on transactions v2 (Kafka's
        transactionVersionForEndTxn): the end bumps the epoch, answered with the producer id
        and epoch to go on with."""
        req, version = request.body, request.api_version
        if not self._txn_writable(request, req.transactional_id):
            request.send_response(EndTxnResponse(throttle_time_ms=0,
                                                 error_code=ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED))
            return
        if version >= END_TXN_V2_VERSION:
            got = self._allocate() if self.coordinator.end_wants_producer_id(req.transactional_id) \
                else ProducerIdAllocation(NO_PRODUCER_ID, ErrorCode.NONE)
            self.coordinator.end_transaction_v2(
                req.transactional_id, req.producer_id, req.producer_epoch, req.committed, got.producer_id,
                lambda error, producer_id, epoch: request.send_response(EndTxnResponse(
                    throttle_time_ms=0, error_code=error, producer_id=producer_id, producer_epoch=epoch)),
                got.error)
            return
        self.coordinator.end_transaction(req.transactional_id, req.producer_id, req.producer_epoch, req.committed,
                                         lambda error: request.send_response(EndTxnResponse(
                                             throttle_time_ms=0,
                                             error_code=_for_version(ApiKey.EndTxn, version, error))))

    # -- DescribeTransactions / ListTransactions ----------------------------------------------

    def handle_describe_transactions(self, request: GroupRequest[DescribeTransactionsRequest]) -> None:
        states = []
        for tid in request.body.transactional_ids:
            if not self.authorizer.authorize(request, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, tid):
                error, found = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, None
            else:
                error, found = self.coordinator.describe(tid)
            if found is None:
                states.append(DescribedTransaction(error_code=error, transactional_id=tid))  # Kafka: the rest default
                continue
            states.append(DescribedTransaction(
                error_code=ErrorCode.NONE, transactional_id=tid, transaction_state=found.state.display_name,
                transaction_timeout_ms=found.timeout_ms, transaction_start_time_ms=found.start_timestamp,
                producer_id=found.producer_id, producer_epoch=found.producer_epoch, topics=_topic_data(found)))
        request.send_response(DescribeTransactionsResponse(throttle_time_ms=0, transaction_states=states))

    def handle_list_transactions(self, request: GroupRequest[ListTransactionsRequest]) -> None:
        req, version = request.body, request.api_version
        wanted: set[TransactionState] = set()
        unknown = []
        for name in req.state_filters:
            state = TransactionState.from_display_name(name)
            if state is None:
                unknown.append(name)
            else:
                wanted.add(state)
        duration = req.duration_filter if version >= 1 else -1
        error, found = self.coordinator.list_transactions(wanted, set(req.producer_id_filters), duration)
        if req.state_filters and not wanted:
            found = []  # only unknown states asked for: nothing matches
        pattern = req.transactional_id_pattern if version >= 2 else None
        if pattern:  # KIP-1152: the whole id matches the regular expression
            try:
                regex = re.compile(pattern)
            except re.error:
                request.send_response(ListTransactionsResponse(
                    throttle_time_ms=0, error_code=ErrorCode.INVALID_REGULAR_EXPRESSION, unknown_state_filters=[],
                    transaction_states=[]))
                return
            found = [d for d in found if regex.fullmatch(d.transactional_id)]
        found = [d for d in found if self.authorizer.authorize(request, AclOperation.DESCRIBE,
                                                               ResourceType.TRANSACTIONAL_ID, d.transactional_id)]
        request.send_response(ListTransactionsResponse(
            throttle_time_ms=0, error_code=error, unknown_state_filters=unknown, transaction_states=[
                ListedTransaction(transactional_id=d.transactional_id, producer_id=d.producer_id,
                                  transaction_state=d.state.display_name) for d in found]))


def _topic_data(found: TransactionDescription) -> list[TopicData]:
    by_topic: dict[str, list[int]] = {}
    for topic, p in sorted(found.partitions):
        by_topic.setdefault(topic, []).append(p)
    return [TopicData(topic=t, partitions=ps) for t, ps in by_topic.items()]
