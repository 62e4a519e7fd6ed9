"""Transaction markers: the control batches that end a transaction in a partition's log.

A marker is a v2 batch with the control and transactional attributes set, the producer's
id and epoch, base sequence -1 and one record (Kafka's EndTransactionMarker and
ControlRecordType): key = version int16 0 + type int16 (ABORT 0, COMMIT 1), value =
version int16 0 + coordinator epoch int32. The transaction coordinator writes one to every
partition of a transaction with WriteTxnMarkers; readers skip control batches, and
read_committed consumers use the ABORT ones (through the aborted-transaction index) to
drop the records of aborted transactions.
"""

from __future__ import annotations

import struct
from enum import IntEnum

from josefk.protocol.record_codec import Buffer, Record, build_batch, decode_batch
from josefk.protocol.records import CorruptRecordError, read_header

CONTROL_RECORD_KEY_VERSION = 0
END_TXN_MARKER_VERSION = 0
_KEY = struct.Struct(">hh")
_VALUE = struct.Struct(">hi")


class ControlRecordType(IntEnum):
    """Kafka's ControlRecordType ids (the key's type field)."""

    ABORT = 0
    COMMIT = 1
    # Kafka also has LEADER_CHANGE (2) and snapshot records (3, 4), all KRaft-only.


def encode_end_txn_marker(producer_id: int, producer_epoch: int, coordinator_epoch: int,
                          commit: bool, timestamp_ms: int) -> bytes:
    """A complete, CRC-signed control batch at base offset 0 (the log assigns the offset)."""
    kind = ControlRecordType.COMMIT if commit else ControlRecordType.ABORT
    record = Record(0, timestamp_ms, _KEY.pack(CONTROL_RECORD_KEY_VERSION, kind),
                    _VALUE.pack(END_TXN_MARKER_VERSION, coordinator_epoch))
    return build_batch([record], producer_id=producer_id, producer_epoch=producer_epoch,
                       base_sequence=-1, is_transactional=True, is_control=True)


def control_record_type(key: bytes | None) -> int:
    """The type id of a control record's key (Kafka's ControlRecordType.parseTypeId)."""
    if key is None or len(key) < _KEY.size:
        raise CorruptRecordError("Invalid control record key: fewer than 4 bytes")
    version, kind = _KEY.unpack_from(key)
    if version < 0:
        raise CorruptRecordError(f"Invalid version found for control record: {version}")
    return int(kind)


def end_txn_coordinator_epoch(value: bytes | None) -> int:
    """The coordinator epoch of an end-transaction marker's value."""
    if value is None or len(value) < _VALUE.size:
        raise CorruptRecordError("Invalid end transaction marker value: fewer than 6 bytes")
    version, coordinator_epoch = _VALUE.unpack_from(value)
    if version < 0:
        raise CorruptRecordError(f"Invalid version found for end transaction marker: {version}")
    return int(coordinator_epoch)


def read_end_txn_marker(batch: Buffer, position: int = 0) -> tuple[ControlRecordType, int]:
    """(type, coordinator epoch) of the control batch at `position`; CorruptRecordError if
    it is not a control batch holding one COMMIT or ABORT record."""
    header = read_header(batch, position)
    if not header.is_control:
        raise CorruptRecordError(f"batch at offset {header.base_offset} is not a control batch")
    records = decode_batch(batch, header)
    if len(records) != 1:
        raise CorruptRecordError(f"control batch at offset {header.base_offset} holds {len(records)} records")
    kind = control_record_type(records[0].key)
    if kind not in (ControlRecordType.ABORT, ControlRecordType.COMMIT):
        raise CorruptRecordError(f"control record type {kind} is not a transaction marker")
    return ControlRecordType(kind), end_txn_coordinator_epoch(records[0].value)
