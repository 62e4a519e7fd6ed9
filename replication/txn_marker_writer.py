"""TxnMarkerWriter: a transaction's COMMIT or ABORT marker appended to the partitions this
broker leads (the body of Kafka's handleWriteTxnMarkersRequest, without the request).

WriteTxnMarkers uses it for each producer in a request; the transaction coordinator uses
it directly for the partitions its own broker leads, instead of a WriteTxnMarkers request
over its own listener: the same control batch, the same acks=all append through the
produce purgatory and request.timeout.ms, the same per-partition errors (which its marker
channel retries or stops on exactly as for a remote leader's answer) and the same
`on_written` hook. Kafka always goes over the network; in-process the marker skips an
encode, a socket round trip and a turn in the request queue behind every client's
requests, which is most of the time in which the producer's next transaction is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from josefk.log.log import AppendOrigin
from josefk.protocol.control_records import encode_end_txn_marker
from josefk.protocol.errors import ErrorCode
from josefk.replication.replica_manager import AppendResult, ReplicaManager, TopicPartition

# (producer id, commit, the partitions written): the group coordinator makes a transaction's
# offsets visible with it, as Kafka's onTransactionCompleted.
TxnMarkersWritten = Callable[[int, bool, list[TopicPartition]], None]


class TxnMarkerWriter:
    def __init__(self, replica_manager: ReplicaManager, timeout_ms: int,
                 on_written: TxnMarkersWritten | None = None) -> None:
        """`timeout_ms` bounds the wait for the ISR (request.timeout.ms, as WriteTxnMarkers'
        appends); `on_written` hears of each producer's written partitions before `done`."""
        self.replica_manager = replica_manager
        self.timeout_ms = timeout_ms
        self.on_written = on_written

    def write(self, producer_id: int, producer_epoch: int, coordinator_epoch: int, commit: bool,
              partitions: Iterable[TopicPartition], done: Callable[[dict[TopicPartition, ErrorCode]], None],
              transaction_version: int = 0) -> None:
        """Append the marker to each partition with acks=all, checked as a marker of that
        `transaction_version` (2: a transactions v2 end, KIP-1228); `done` gets every partition's
        error once all are acknowledged or failed (now, or on a later loop turn). A partition
        this broker does not host is UNKNOWN_TOPIC_OR_PARTITION; the append's own errors
        (NOT_LEADER_OR_FOLLOWER, INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED, ...)
        are answered as they are."""
        manager = self.replica_manager
        errors: dict[TopicPartition, ErrorCode] = {}
        entries: dict[TopicPartition, bytes] = {}
        now = manager.time.milliseconds()
        marker: bytes | None = None
        for key in partitions:
            if key in manager.partitions and key not in manager.offline_partitions:
                if marker is None:
                    marker = encode_end_txn_marker(producer_id, producer_epoch, coordinator_epoch, commit, now)
                entries[key] = marker
            else:
                errors[key] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        if not entries:
            done(errors)
            return

        def appended(results: dict[TopicPartition, AppendResult]) -> None:
            written = []
            for key, result in results.items():
                errors[key] = result.error
                if result.error == ErrorCode.NONE:
                    written.append(key)
            if written and self.on_written is not None:
                self.on_written(producer_id, commit, written)
            done(errors)

        manager.append_records(entries, -1, now, self.timeout_ms, appended, origin=AppendOrigin.COORDINATOR,
                               marker_transaction_version=transaction_version)
