"""Key and value layouts of the records in __transaction_state, as Kafka writes them
(TransactionLogKey v0, TransactionLogValue v0), so Kafka's tools read josefk's topic and a
josefk broker loads one Kafka wrote. A null value is a tombstone: the id expired."""

from __future__ import annotations

from dataclasses import dataclass

from josefk.coordinator.offsets_store import partition_for
from josefk.coordinator.record_io import RecordFormatError, RecordReader, RecordWriter
from josefk.coordinator.transaction_metadata import TransactionMetadata, TransactionState, TxnTransit

TRANSACTION_STATE_TOPIC = "__transaction_state"
KEY_VERSION = 0
VALUE_VERSION = 0

__all__ = ["TRANSACTION_STATE_TOPIC", "partition_for", "transaction_key", "transaction_value", "read_key",
           "read_value", "StoredTransaction"]


def transaction_key(transactional_id: str) -> bytes:
    return bytes(RecordWriter().int16(KEY_VERSION).string(transactional_id).buf)


def transaction_value(transit: TxnTransit) -> bytes:
    """TransactionLogValue v0. Kafka writes the partitions as null in the Empty state, and
    never writes a pending-only state."""
    if transit.state == TransactionState.EMPTY and transit.partitions:
        raise ValueError("an Empty transaction has no partitions")
    w = RecordWriter().int16(VALUE_VERSION).int64(transit.producer_id).int16(transit.producer_epoch)
    w.int32(transit.txn_timeout_ms)
    w.buf += bytes([transit.state])
    if transit.state == TransactionState.EMPTY:
        w.int32(-1)
    else:
        by_topic: dict[str, list[int]] = {}
        for topic, partition in sorted(transit.partitions):
            by_topic.setdefault(topic, []).append(partition)
        w.int32(len(by_topic))
        for topic, partitions in by_topic.items():
            w.string(topic).int32(len(partitions))
            for p in partitions:
                w.int32(p)
    w.int64(transit.txn_last_update_timestamp).int64(transit.txn_start_timestamp)
    return bytes(w.buf)


def read_key(data: bytes) -> str:
    r = RecordReader(data)
    version = r.int16()
    if version != KEY_VERSION:
        raise RecordFormatError(f"unknown transaction log key version {version}")
    tid = r.string()
    if tid is None:
        raise RecordFormatError("null transactional id")
    return tid


@dataclass(frozen=True)
class StoredTransaction:
    """A TransactionLogValue as read back."""

    producer_id: int
    producer_epoch: int
    txn_timeout_ms: int
    state: TransactionState
    partitions: frozenset[tuple[str, int]]
    txn_last_update_timestamp: int
    txn_start_timestamp: int

    def to_metadata(self, transactional_id: str) -> TransactionMetadata:
        """Kafka's loader: the previous producer id and epoch are not stored in v0."""
        return TransactionMetadata(transactional_id, self.producer_id, -1, self.producer_epoch, -1,
                                   self.txn_timeout_ms, self.state, set(self.partitions), self.txn_start_timestamp,
                                   self.txn_last_update_timestamp)


def read_value(data: bytes) -> StoredTransaction:
    """Versions 0 and 1 (1 is flexible: compact strings and arrays, tagged fields ignored)."""
    r = RecordReader(data)
    version = r.int16()
    if version not in (0, 1):
        raise RecordFormatError(f"unknown transaction log value version {version}")
    flexible = version == 1
    producer_id = r.int64()
    producer_epoch = r.int16()
    timeout = r.int32()
    state_id = r.int8()
    try:
        state = TransactionState(state_id)
    except ValueError:
        raise RecordFormatError(f"unknown transaction status {state_id}") from None
    count = r.uvarint() - 1 if flexible else r.int32()
    partitions: set[tuple[str, int]] = set()
    for _ in range(max(count, 0)):
        topic = r.compact_string() if flexible else r.string()
        if topic is None:
            raise RecordFormatError("null topic")
        n = r.uvarint() - 1 if flexible else r.int32()
        partitions.update((topic, r.int32()) for _ in range(max(n, 0)))
        if flexible:
            r.skip_tagged_fields()
    last_update = r.int64()
    start = r.int64()
    return StoredTransaction(producer_id, producer_epoch, timeout, state, frozenset(partitions), last_update, start)
