"""The aborted-transaction index of a segment, `<base offset>.txnindex` (Kafka's
TransactionIndex and AbortedTxn).

When an ABORT marker completes a transaction, the segment the marker lands in gets one
34-byte entry: version int16 (0), producer id int64, first offset int64, last offset int64
(the marker's) and the partition's last stable offset int64 at that moment. A
read_committed Fetch returns the entries that overlap what it read, and the consumer drops
those producers' records from first offset on. As in Kafka the file is created on the
first entry only, so segments without aborted transactions have none.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path

from josefk.log.index import CorruptIndexError

TXN_INDEX_SUFFIX = ".txnindex"
ABORTED_TXN_VERSION = 0
_ENTRY = struct.Struct(">hqqqq")
ENTRY_SIZE = _ENTRY.size  # 34


class CorruptTxnIndexError(CorruptIndexError):
    """The file is not a whole number of valid entries (Kafka's CorruptIndexException)."""


@dataclass(frozen=True, slots=True)
class AbortedTxn:
    producer_id: int
    first_offset: int
    last_offset: int
    last_stable_offset: int

    def encode(self) -> bytes:
        return _ENTRY.pack(ABORTED_TXN_VERSION, self.producer_id, self.first_offset, self.last_offset,
                           self.last_stable_offset)


@dataclass(slots=True)
class TxnIndexSearchResult:
    aborted: list[AbortedTxn]
    is_complete: bool  # no later segment can hold an overlapping entry


class TransactionIndex:
    """Append-only list of AbortedTxn entries with increasing last offsets. Entries are
    few (one per aborted transaction), so they are kept in memory as well as on disk."""

    def __init__(self, base_offset: int, path: Path) -> None:
        self.base_offset = base_offset
        self.path = Path(path)
        self._fd: int | None = None
        self._corrupt: str | None = None
        try:
            self._entries = self._read() if self.path.exists() else []
        except CorruptTxnIndexError as e:
            self._entries, self._corrupt = [], str(e)

    def _read(self) -> list[AbortedTxn]:
        data = self.path.read_bytes()
        entries = []
        for pos in range(0, len(data) - len(data) % ENTRY_SIZE, ENTRY_SIZE):
            version, pid, first, last, lso = _ENTRY.unpack_from(data, pos)
            if version != ABORTED_TXN_VERSION:
                raise CorruptTxnIndexError(f"{self.path}: unexpected aborted transaction version {version}")
            entries.append(AbortedTxn(pid, first, last, lso))
        return entries

    @property
    def entries(self) -> list[AbortedTxn]:
        return list(self._entries)

    def _channel(self) -> int:
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        return self._fd

    def append(self, txn: AbortedTxn) -> None:
        if self._entries and self._entries[-1].last_offset >= txn.last_offset:
            raise ValueError(f"The last offset of appended transactions must increase sequentially, but "
                             f"{txn.last_offset} is not greater than current last offset "
                             f"{self._entries[-1].last_offset} of index {self.path}")
        os.write(self._channel(), txn.encode())
        self._entries.append(txn)

    def truncate_to(self, offset: int) -> None:
        """Drop the entries whose marker is at or after `offset`."""
        keep = sum(1 for e in self._entries if e.last_offset < offset)
        if keep < len(self._entries):
            del self._entries[keep:]
            if self.path.exists():
                os.truncate(self.path, keep * ENTRY_SIZE)

    def reset(self) -> None:
        """Empty the index (it is about to be rebuilt from the log)."""
        self._entries.clear()
        self._corrupt = None
        if self.path.exists():
            os.truncate(self.path, 0)

    def collect_aborted_txns(self, fetch_offset: int, upper_bound_offset: int) -> TxnIndexSearchResult:
        """Kafka's collectAbortedTxns: the entries overlapping [fetch_offset, upper_bound);
        complete once an entry's last stable offset reaches the upper bound."""
        found = []
        for txn in self._entries:
            if txn.last_offset >= fetch_offset and txn.first_offset < upper_bound_offset:
                found.append(txn)
            if txn.last_stable_offset >= upper_bound_offset:
                return TxnIndexSearchResult(found, True)
        return TxnIndexSearchResult(found, False)

    def sanity_check(self) -> None:
        if self._corrupt is not None:
            raise CorruptTxnIndexError(self._corrupt)
        if self.path.exists() and self.path.stat().st_size % ENTRY_SIZE:
            raise CorruptTxnIndexError(f"Transaction index file {self.path} has size "
                                       f"{self.path.stat().st_size}, not a multiple of {ENTRY_SIZE}")

    def rename_to(self, path: Path) -> None:
        try:
            os.rename(self.path, path)
        except FileNotFoundError:
            pass
        self.path = Path(path)

    def flush(self) -> None:
        if self._fd is not None:
            os.fsync(self._fd)

    def dup_fd(self) -> int | None:
        """A duplicate of the open descriptor, for a flush from another thread."""
        return os.dup(self._fd) if self._fd is not None else None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def delete(self) -> None:
        self.close()
        self.path.unlink(missing_ok=True)
