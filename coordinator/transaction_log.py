"""Key and value layouts of the records in __transaction_state, as Kafka writes them
(TransactionLogKey v0, TransactionLogValue v0, or v1 once transaction.version 1 or later is
finalized), so Kafka's tools read josefk's topic and a josefk broker loads one Kafka wrote.
Value v1 is flexible and carries transactions v2's fields as tagged fields: the previous
and next producer ids and the client's transaction version. A null value is a tombstone:
the id expired."""

from __future__ import annotations

from dataclasses import dataclass

from josefk.coordinator.offsets_store import partition_for
from josefk.coordinator.record_io import RecordFormatError, RecordReader, RecordWriter
from josefk.coordinator.transaction_metadata import (
    NO_PRODUCER_ID,
    TV_0,
    TransactionMetadata,
    TransactionState,
    TxnTransit,
)

TRANSACTION_STATE_TOPIC = "__transaction_state"
KEY_VERSION = 0
VALUE_VERSION = 0
# Tags of TransactionLogValue v1's tagged fields (Kafka 4.4.0's TransactionLogValue.json).
PREVIOUS_PRODUCER_ID_TAG, NEXT_PRODUCER_ID_TAG, CLIENT_TRANSACTION_VERSION_TAG = 0, 1, 2

__all__ = ["TRANSACTION_STATE_TOPIC", "partition_for", "transaction_key", "transaction_value", "read_key",
           "read_value", "StoredTransaction"]


def transaction_key(transactional_id: str) -> bytes:
    return bytes(RecordWriter().int16(KEY_VERSION).string(transactional_id).buf)


def value_version(transaction_version: int) -> int:
    """The value version Kafka writes at a finalized transaction.version
    (TransactionVersion.transactionLogValueVersion): 1 from level 1 on."""
    return 1 if transaction_version >= 1 else 0


def transaction_value(transit: TxnTransit, version: int = VALUE_VERSION) -> bytes:
    """TransactionLogValue v0, or v1 (flexible, with its tagged fields). Kafka writes the
    partitions as null in the Empty state, and never writes a pending-only state."""
    if transit.state == TransactionState.EMPTY and transit.partitions:
        raise ValueError("an Empty transaction has no partitions")
    flexible = version >= 1
    w = RecordWriter().int16(version).int64(transit.producer_id).int16(transit.producer_epoch)
    w.int32(transit.txn_timeout_ms)
    w.buf += bytes([transit.state])
    by_topic: dict[str, list[int]] = {}
    for topic, partition in sorted(transit.partitions):
        by_topic.setdefault(topic, []).append(partition)
    if transit.state == TransactionState.EMPTY:
        w.uvarint(0) if flexible else w.int32(-1)
    elif flexible:
        w.compact_array_length(len(by_topic))
        for topic, partitions in by_topic.items():
            w.compact_string(topic).compact_array_length(len(partitions))
            for p in partitions:
                w.int32(p)
            w.no_tagged_fields()
    else:
        w.int32(len(by_topic))
        for topic, partitions in by_topic.items():
            w.string(topic).int32(len(partitions))
            for p in partitions:
                w.int32(p)
    w.int64(transit.txn_last_update_timestamp).int64(transit.txn_start_timestamp)
    if flexible:
        tagged = []  # those not at their default, in tag order
        if transit.last_producer_id != NO_PRODUCER_ID:
            tagged.append((PREVIOUS_PRODUCER_ID_TAG, RecordWriter().int64(transit.last_producer_id).buf))
        if transit.next_producer_id != NO_PRODUCER_ID:
            tagged.append((NEXT_PRODUCER_ID_TAG, RecordWriter().int64(transit.next_producer_id).buf))
        if transit.client_transaction_version != TV_0:
            tagged.append((CLIENT_TRANSACTION_VERSION_TAG,
                           RecordWriter().int16(transit.client_transaction_version).buf))
        w.uvarint(len(tagged))
        for tag, data in tagged:
            w.uvarint(tag).uvarint(len(data))
            w.buf += data
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
    previous_producer_id: int = NO_PRODUCER_ID  # v1's tagged fields
    next_producer_id: int = NO_PRODUCER_ID
    client_transaction_version: int = TV_0

    def to_metadata(self, transactional_id: str) -> TransactionMetadata:
        """Kafka's loader: the last producer epoch is not stored (nor, in v0, the previous id)."""
        return TransactionMetadata(transactional_id, self.producer_id, self.previous_producer_id,
                                   self.producer_epoch, -1, self.txn_timeout_ms, self.state, set(self.partitions),
                                   self.txn_start_timestamp, self.txn_last_update_timestamp,
                                   next_producer_id=self.next_producer_id,
                                   client_transaction_version=self.client_transaction_version)


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
    tagged = r.tagged_fields() if flexible and not r.at_end() else {}

    def tagged_int(tag: int, default: int) -> int:
        data = tagged.get(tag)
        return default if data is None else int.from_bytes(data, "big", signed=True)

    return StoredTransaction(producer_id, producer_epoch, timeout, state, frozenset(partitions), last_update, start,
                             tagged_int(PREVIOUS_PRODUCER_ID_TAG, NO_PRODUCER_ID),
                             tagged_int(NEXT_PRODUCER_ID_TAG, NO_PRODUCER_ID),
                             tagged_int(CLIENT_TRANSACTION_VERSION_TAG, TV_0))
