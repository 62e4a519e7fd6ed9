"""Sparse segment indexes, byte-compatible with Kafka's .index and .timeindex files.

OffsetIndex entries are 8 bytes: offset relative to the segment's base offset (int32)
and the byte position of a batch in the .log file (int32), both big-endian. TimeIndex
entries are 12 bytes: a timestamp (int64) and the relative offset (int32) of the batch
that first reached it. Both files are preallocated to segment.index.bytes (rounded down
to a whole entry) while the segment is active, read and written through mmap, and
trimmed to their real size when the segment rolls or closes.

Like Kafka's indexes, an open index holds no file descriptor: the file is opened only to
map, resize, allocate or fsync it. CPython's mmap.mmap keeps a dup of the descriptor for
as long as the mapping lives (until Python 3.13's trackfd=False), which cost a broker two
descriptors per index, five per segment; _Mapping maps through libc instead.

An index is only an accelerator: each entry points at a batch boundary, lookups return
the greatest entry at or below the target, and the segment scans batch headers forward
from there. A missing or damaged index is rebuilt from the .log file (LogSegment.recover).
"""

from __future__ import annotations

import contextlib
import ctypes
import mmap
import os
import struct
from collections.abc import Iterator
from pathlib import Path

from josefk.log.checkpoint import fsync_file

_RESERVE_CHUNK = 4096  # index bytes allocated at a time (one page: 512 offset entries)

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int64]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_MAP_FAILED = ctypes.c_void_p(-1).value


def _check(result: int | None, what: str) -> int:
    if result is None or result == _MAP_FAILED or result == -1:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


class _Mapping:
    """A shared read-write mapping of a whole file that, unlike mmap.mmap, keeps no
    descriptor: the caller may close its fd as soon as the mapping exists (POSIX keeps
    the file referenced by the mapping). `view` is a writable byte memoryview of it."""

    def __init__(self, fd: int, length: int) -> None:
        self._length = length
        self._addr = _check(_libc.mmap(None, length, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_SHARED, fd, 0),
                            "mmap")
        self.view = memoryview((ctypes.c_char * length).from_address(self._addr)).cast("B")

    def madvise(self, advice: int) -> None:
        _check(_libc.madvise(self._addr, self._length, advice), "madvise")

    def close(self) -> None:
        """Unmap. Any later access through a view taken from it would crash the process,
        so the view is released first (a still exported buffer raises BufferError)."""
        if self._length:
            self.view.release()
            _check(_libc.munmap(self._addr, self._length), "munmap")
            self._length = 0

    def __del__(self) -> None:
        # An index dropped without close() (a test's log, say) must not leak its mapping,
        # as mmap.mmap's would not.
        with contextlib.suppress(Exception):
            self.close()


class CorruptIndexError(ValueError):
    """An index file fails its sanity check; the segment should rebuild it."""


class _Index:
    """What both indexes share: the file, the mmap, the entry count, binary search."""

    ENTRY: struct.Struct
    SUFFIX: str

    def __init__(self, path: Path, base_offset: int, max_index_size: int | None = None) -> None:
        """Open (or create) the index. With `max_index_size` the file is grown to hold that
        many bytes of entries so it can be appended to; without, it is opened at its size."""
        self.path = Path(path)
        self.base_offset = base_offset
        self._size = self.ENTRY.size
        self._mapping: _Mapping | None = None
        self._mm: memoryview | None = None
        self._max_entries = 0
        self._entries = 0
        self._reserved = 0  # bytes from the start known to have disk blocks (see _reserve)
        with self._open(create=True) as fd:
            length = os.fstat(fd).st_size
            self._corrupt_length = length % self._size != 0
            self._map(fd, length - length % self._size)
            self._entries = self._count_entries()
            self._reserved = self._entries * self._size
            if max_index_size is not None:
                self._resize(fd, max_index_size)

    # -- file and mapping ---------------------------------------------------------------

    @contextlib.contextmanager
    def _open(self, create: bool = False) -> Iterator[int]:
        """The file's descriptor, for one operation only (an open index holds none)."""
        fd = os.open(self.path, os.O_RDWR | (os.O_CREAT if create else 0), 0o644)
        try:
            yield fd
        finally:
            os.close(fd)

    def _unmap(self) -> None:
        if self._mapping is not None:
            self._mm = None
            self._mapping.close()
            self._mapping = None

    def _map(self, fd: int, length: int) -> None:
        self._unmap()
        if os.fstat(fd).st_size != length:
            os.ftruncate(fd, length)
        if length > 0:
            self._mapping = _Mapping(fd, length)
            self._mm = self._mapping.view
            # Lookups are binary searches: without this, every probe of a cold preallocated file
            # (an active segment after a crash) faults in a whole readahead window of its holes,
            # about 7 ms per 10 MB index, which made 1,000 partitions take 13 s to load.
            self._mapping.madvise(mmap.MADV_RANDOM)
        self._max_entries = length // self._size
        self._reserved = min(self._reserved, length)

    def _reserve(self, slot: int) -> None:
        """Allocate disk blocks for `slot` before writing it through the mapping: the
        preallocated file is sparse, and a store into a hole on a full file system is a
        SIGBUS that kills the process, where fallocate fails with ENOSPC (an OSError)."""
        end = (slot + 1) * self._size
        if end <= self._reserved:
            return
        start = self._reserved - self._reserved % _RESERVE_CHUNK
        stop = min(max(end, start + _RESERVE_CHUNK), self._max_entries * self._size)
        with self._open() as fd:
            os.posix_fallocate(fd, start, stop - start)
        self._reserved = stop

    def _count_entries(self) -> int:
        """Entries in use: a preallocated file that was never trimmed (a crash) ends in
        all-zero slots. Entries are increasing, so every slot after the first real one is
        non-zero; only slot 0 may legitimately be zero (a time index entry (0, 0))."""
        n = self._max_entries
        if n == 0 or not self._is_zero(n - 1):
            return n
        lo, hi = 1, n - 1  # slot hi is zero; find the first zero slot in [1, hi]
        while lo < hi:
            mid = (lo + hi) // 2
            if self._is_zero(mid):
                hi = mid
            else:
                lo = mid + 1
        if lo == 1 and self._is_zero(0):
            return 0
        return lo

    def _is_zero(self, slot: int) -> bool:
        assert self._mm is not None
        start = slot * self._size
        return self._mm[start : start + self._size] == bytes(self._size)

    def resize(self, max_index_size: int) -> None:
        """Grow (or shrink, never below the entries in use) the preallocated file."""
        if self._wanted_length(max_index_size) != self._max_entries * self._size:
            with self._open() as fd:
                self._resize(fd, max_index_size)

    def _wanted_length(self, max_index_size: int) -> int:
        return max(max_index_size - max_index_size % self._size, self._entries * self._size)

    def _resize(self, fd: int, max_index_size: int) -> None:
        length = self._wanted_length(max_index_size)
        if length != self._max_entries * self._size:
            self._map(fd, length)

    def trim_to_valid_size(self) -> None:
        """Cut the preallocated tail so the file holds exactly its entries (roll, close)."""
        self.resize(self._entries * self._size)

    # -- properties ---------------------------------------------------------------------

    @property
    def entries(self) -> int:
        return self._entries

    @property
    def max_entries(self) -> int:
        return self._max_entries

    @property
    def size_in_bytes(self) -> int:
        return self._entries * self._size

    def is_full(self) -> bool:
        return self._entries >= self._max_entries

    def _relative(self, offset: int) -> int:
        rel = offset - self.base_offset
        if not 0 <= rel <= 0x7FFFFFFF:
            raise ValueError(f"offset {offset} does not fit relative to base offset {self.base_offset}")
        return rel

    def _entry(self, slot: int) -> tuple[int, int]:
        assert self._mm is not None
        return self.ENTRY.unpack_from(self._mm, slot * self._size)

    def _search(self, target: int, field: int, upper: bool = False) -> int:
        """Slot of the greatest entry whose `field` is <= target (-1 if none). With
        `upper`, the first slot whose field is >= target instead (entries if none)."""
        lo, hi = 0, self._entries - 1
        if upper:
            result = self._entries
            while lo <= hi:
                mid = (lo + hi) // 2
                if self._entry(mid)[field] >= target:
                    result, hi = mid, mid - 1
                else:
                    lo = mid + 1
            return result
        result = -1
        while lo <= hi:
            mid = (lo + hi) // 2
            if self._entry(mid)[field] <= target:
                result, lo = mid, mid + 1
            else:
                hi = mid - 1
        return result

    def _truncate_to_entries(self, n: int) -> None:
        """Keep the first n entries and zero the rest, so a crash cannot resurrect them."""
        if n < self._entries:
            assert self._mm is not None
            self._mm[n * self._size : self._entries * self._size] = bytes((self._entries - n) * self._size)
            self._entries = n

    def reset(self) -> None:
        """Drop every entry (before a rebuild)."""
        self._truncate_to_entries(0)

    def flush(self) -> None:
        """fsync the file: the mapping's stores are in the page cache, which fsync writes
        back (what Kafka's MappedByteBuffer.force does). Safe from another thread; an index
        renamed or removed meanwhile (its segment is being deleted) needs no sync."""
        fsync_file(self.path)

    def close(self) -> None:
        self._unmap()

    def delete(self) -> None:
        self.close()
        self.path.unlink(missing_ok=True)

    def rename(self, path: Path) -> None:
        os.rename(self.path, path)
        self.path = Path(path)


class OffsetIndex(_Index):
    """Maps offsets to .log positions: (relative offset int32, position int32) entries."""

    ENTRY = struct.Struct(">ii")
    SUFFIX = ".index"

    def append(self, offset: int, position: int) -> None:
        """Add an entry; offsets must strictly increase (Kafka's InvalidOffsetException)."""
        if self.is_full():
            raise ValueError(f"offset index {self.path} is full")
        if self._entries and offset <= self.last_offset:
            raise ValueError(f"offset {offset} is not larger than the last indexed offset {self.last_offset}")
        assert self._mm is not None
        self._reserve(self._entries)
        self.ENTRY.pack_into(self._mm, self._entries * self._size, self._relative(offset), position)
        self._entries += 1

    @property
    def last_offset(self) -> int:
        if self._entries == 0:
            return self.base_offset
        return self.base_offset + self._entry(self._entries - 1)[0]

    def entry(self, slot: int) -> tuple[int, int]:
        """(absolute offset, position) of one entry."""
        rel, pos = self._entry(slot)
        return self.base_offset + rel, pos

    def lookup(self, offset: int) -> tuple[int, int]:
        """Greatest entry with offset <= `offset`, or (base_offset, 0)."""
        slot = self._search(offset - self.base_offset, 0)
        return (self.base_offset, 0) if slot < 0 else self.entry(slot)

    def lookup_position(self, position: int) -> tuple[int, int]:
        """Greatest entry with position <= `position`, or (base_offset, 0)."""
        slot = self._search(position, 1)
        return (self.base_offset, 0) if slot < 0 else self.entry(slot)

    def truncate_to(self, offset: int) -> None:
        """Remove entries for offsets >= `offset`."""
        self._truncate_to_entries(self._search(offset - self.base_offset, 0, upper=True))

    def sanity_check(self) -> None:
        if self._corrupt_length:
            raise CorruptIndexError(f"index file {self.path} has a partial entry")
        previous = -1
        for slot in (0, self._entries - 1) if self._entries else ():
            rel, pos = self._entry(slot)
            if rel < 0 or pos < 0 or rel < previous:
                raise CorruptIndexError(f"corrupt index {self.path}: entry {slot} = ({rel}, {pos})")
            previous = rel


class TimeIndex(_Index):
    """Maps timestamps to offsets: (timestamp int64, relative offset int32) entries.

    One slot is held back so the segment can always record its final max timestamp when
    it rolls (Kafka's TimeIndex.isFull counts maxEntries - 1).
    """

    ENTRY = struct.Struct(">qi")
    SUFFIX = ".timeindex"

    def is_full(self) -> bool:
        return self._entries >= self._max_entries - 1

    def maybe_append(self, timestamp: int, offset: int, skip_full_check: bool = False) -> None:
        """Add (timestamp, offset) if the timestamp is larger than the last entry's."""
        if self._entries:
            last_ts, last_rel = self._entry(self._entries - 1)
            if timestamp <= last_ts:
                return
            if offset - self.base_offset < last_rel:
                raise ValueError(f"time index offset {offset} below the last indexed offset")
        if self._entries >= self._max_entries:
            if skip_full_check:
                return  # no slot at all (a tiny segment.index.bytes): the entry is only a hint
            raise ValueError(f"time index {self.path} is full")
        if not skip_full_check and self.is_full():
            raise ValueError(f"time index {self.path} is full")
        assert self._mm is not None
        self._reserve(self._entries)
        self.ENTRY.pack_into(self._mm, self._entries * self._size, timestamp, self._relative(offset))
        self._entries += 1

    def entry(self, slot: int) -> tuple[int, int]:
        """(timestamp, absolute offset) of one entry."""
        ts, rel = self._entry(slot)
        return ts, self.base_offset + rel

    @property
    def last_entry(self) -> tuple[int, int]:
        """(timestamp, offset) of the last entry, or (-1, base_offset)."""
        return self.entry(self._entries - 1) if self._entries else (-1, self.base_offset)

    def lookup(self, timestamp: int) -> tuple[int, int]:
        """Greatest entry with timestamp <= `timestamp`, or (-1, base_offset)."""
        slot = self._search(timestamp, 0)
        return (-1, self.base_offset) if slot < 0 else self.entry(slot)

    def truncate_to(self, offset: int) -> None:
        """Remove entries for offsets >= `offset`."""
        self._truncate_to_entries(self._search(offset - self.base_offset, 1, upper=True))

    def sanity_check(self) -> None:
        if self._corrupt_length:
            raise CorruptIndexError(f"time index file {self.path} has a partial entry")
        if self._entries:
            first_ts, first_rel = self._entry(0)
            last_ts, last_rel = self._entry(self._entries - 1)
            if last_ts < first_ts or last_rel < first_rel or first_rel < 0:
                raise CorruptIndexError(f"corrupt time index {self.path}")
