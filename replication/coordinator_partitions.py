"""LocalCoordinatorPartitions: the group coordinator's view of this broker's replicas.

The coordinator depends on coordinator.offsets_store.CoordinatorPartitions, a Protocol of
what it needs of its topic's partitions (lead, append, replay); this adapter implements it
over the ReplicaManager, as Kafka's CoordinatorPartitionWriter and CoordinatorLoaderImpl
stand between its coordinators and the ReplicaManager.
"""

from __future__ import annotations

from collections.abc import Callable

from josefk.log.log import AppendOrigin, FetchDataInfo
from josefk.log.producer_state import SENTINEL, VerificationGuard
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.replication.replica_manager import AppendResult, ReplicaManager, TopicPartition


class LocalCoordinatorPartitions:
    def __init__(self, replica_manager: ReplicaManager) -> None:
        self._replica_manager = replica_manager

    def leader_epoch(self, tp: TopicPartition) -> int | None:
        partition = self._replica_manager.partitions.get(tp)
        return partition.elected_epoch if partition is not None and partition.is_leader else None

    def led_partitions(self, topic: str) -> dict[int, int]:
        return {index: partition.elected_epoch
                for (name, index), partition in list(self._replica_manager.partitions.items())
                if name == topic and partition.is_leader}

    def append(self, tp: TopicPartition, records: bytes, required_acks: int, now_ms: int, timeout_ms: int,
               done: Callable[[ErrorCode, str | None], None],
               verification_guard: VerificationGuard = SENTINEL) -> None:
        def respond(results: dict[TopicPartition, AppendResult]) -> None:
            result = results[tp]
            done(ErrorCode(result.error), result.message)

        # Coordinator writes are not a client's: their batches (transactional offsets included)
        # skip the client checks and sequence numbering, as Kafka's AppendOrigin.COORDINATOR.
        self._replica_manager.append_records({tp: records}, required_acks=required_acks, now_ms=now_ms,
                                             timeout_ms=timeout_ms, respond=respond, origin=AppendOrigin.COORDINATOR,
                                             verification_guards={tp: verification_guard})

    def verify_transaction(self, tp: TopicPartition, transactional_id: str, producer_id: int, producer_epoch: int,
                           done: Callable[[ErrorCode, VerificationGuard], None], add: bool = False) -> None:
        def verified(errors: dict[TopicPartition, ErrorCode], guards: dict[TopicPartition, VerificationGuard]) -> None:
            done(errors.get(tp, ErrorCode.NONE), guards.get(tp, SENTINEL))

        # Kafka's maybeStartTransactionVerificationForPartition, with RecordBatch.NO_SEQUENCE
        self._replica_manager.start_transaction_verification({tp: -1}, transactional_id, producer_id,
                                                             producer_epoch, verified, add)

    def log_offsets(self, tp: TopicPartition) -> tuple[int, int] | None:
        partition = self._replica_manager.partitions.get(tp)
        if partition is None:
            return None
        return partition.log.log_start_offset, partition.log.log_end_offset

    def read(self, tp: TopicPartition, offset: int, max_bytes: int) -> FetchDataInfo:
        partition = self._replica_manager.partitions.get(tp)
        if partition is None:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No replica of {tp[0]}-{tp[1]} on this broker")
        return partition.log.read(offset, max_bytes, max_offset=None, min_one_message=True)
