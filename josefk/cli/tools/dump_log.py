"""`josefk dump-log`: Kafka's kafka-dump-log.sh (DumpLogSegments) for segment files.

It reads the files itself rather than through josefk's log package, so it shows what is on
disk, the way Kafka's tool does: .log batches (v2), .index and .timeindex entries checked
against the .log, and producer .snapshot files. Output is line for line Kafka 3.9's.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import crc32c

from josefk.cli.tools.common import parser
from josefk.protocol.record_codec import decode_batch
from josefk.protocol.records import (
    ATTRIBUTES_OFFSET,
    HEADER_SIZE,
    LOG_OVERHEAD,
    MAGIC_OFFSET,
    BatchHeader,
    CorruptRecordError,
)

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
DELETE_HORIZON_MASK = 0x40
HEADER = struct.Struct(">qiibIhiqqqhii")
OFFSET_ENTRY = struct.Struct(">ii")  # relative offset, position
TIME_ENTRY = struct.Struct(">qi")  # timestamp, relative offset
SNAPSHOT_HEAD = struct.Struct(">hI")
SNAPSHOT_ENTRY = struct.Struct(">qhiqiqiq")
MIN_RECORD_OVERHEAD = 14  # Kafka's LegacyRecord.RECORD_OVERHEAD_V0: the smallest size field it accepts


class DumpError(Exception):
    """A file Kafka's tool would fail on (a corrupt index, an unreadable file): one line, exit 1."""


@dataclass
class Problems:
    """What Kafka's tool reports on stderr after dumping every file, per file."""

    index_mismatches: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    time_mismatches: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    out_of_order: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    not_found: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    non_consecutive: dict[str, list[tuple[int, int]]] = field(default_factory=dict)

    def print(self, err: IO[str]) -> None:
        for name, pairs in self.index_mismatches.items():
            print(f"Mismatches in :{name}", file=err)
            for index_offset, log_offset in pairs:  # Kafka prepends, so the latest comes first
                print(f"  Index offset: {index_offset}, log offset: {log_offset}", file=err)
        for name, pairs in self.time_mismatches.items():
            print(f"Found timestamp mismatch in :{name}", file=err)
            for index_ts, log_ts in pairs:
                print(f"  Index timestamp: {index_ts}, log timestamp: {log_ts}", file=err)
        for name, pairs in self.out_of_order.items():
            print(f"Found out of order timestamp in :{name}", file=err)
            for index_ts, prev_ts in pairs:
                print(f"  Index timestamp: {index_ts}, Previously indexed timestamp: {prev_ts}", file=err)
        for pairs in self.not_found.values():
            print("The following indexed offsets are not found in the log.", file=err)
            for index_offset, log_offset in pairs:
                print(f"Indexed offset: {index_offset}, found log offset: {log_offset}", file=err)
        for name, pairs in self.non_consecutive.items():
            print(f"Non-consecutive offsets in {name}", file=err)
            for first, second in pairs:
                print(f"  {first} is followed by {second}", file=err)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        raise DumpError(f"{path} (No such file or directory)" if isinstance(e, FileNotFoundError)
                        else f"{path}: {e.strerror}") from None


def _base_offset(path: Path) -> int:
    try:
        return int(path.name.split(".")[0])
    except ValueError:
        raise DumpError(f'For input string: "{path.name.split(".")[0]}"') from None


def batches(data: bytes, start: int = 0, end: int | None = None) -> Iterator[BatchHeader]:
    """The batches Kafka's FileLogInputStream yields from `start`, lazily: it stops, without an
    error, at a tail too short for a header or a batch that runs past the end."""
    end = len(data) if end is None else min(end, len(data))
    pos = start
    while end - pos >= MAGIC_OFFSET + 1:
        base_offset, size = struct.unpack_from(">qi", data, pos)
        if size < MIN_RECORD_OVERHEAD:
            raise DumpError(f"Found record size {size} smaller than minimum record overhead "
                            f"({MIN_RECORD_OVERHEAD}) in file.")
        if pos + LOG_OVERHEAD + size > end:
            return
        if data[pos + MAGIC_OFFSET] != 2 or size < HEADER_SIZE - LOG_OVERHEAD:
            raise DumpError(f"Unsupported magic {data[pos + MAGIC_OFFSET]} in batch at offset {base_offset}: "
                            "josefk writes record batch v2 only")
        yield BatchHeader(pos, *HEADER.unpack_from(data, pos))
        pos += LOG_OVERHEAD + size


def _crc_ok(data: bytes, h: BatchHeader) -> bool:
    return crc32c.crc32c(memoryview(data)[h.position + ATTRIBUTES_OFFSET: h.position + h.size]) == h.crc


def _timestamp_type(h: BatchHeader) -> str:
    return "LogAppendTime" if h.is_log_append_time else "CreateTime"


def _batch_line(data: bytes, h: BatchHeader, position: int) -> str:
    horizon = f"OptionalLong[{h.base_timestamp}]" if h.attributes & DELETE_HORIZON_MASK else "OptionalLong.empty"
    codec = CODECS[h.compression] if h.compression < len(CODECS) else str(h.compression)
    return (f"baseOffset: {h.base_offset} lastOffset: {h.last_offset} count: {h.record_count} "
            f"baseSequence: {h.base_sequence} lastSequence: {h.last_sequence} producerId: {h.producer_id} "
            f"producerEpoch: {h.producer_epoch} partitionLeaderEpoch: {h.partition_leader_epoch} "
            f"isTransactional: {str(h.is_transactional).lower()} isControl: {str(h.is_control).lower()} "
            f"deleteHorizonMs: {horizon} position: {position} {_timestamp_type(h)}: {h.max_timestamp} "
            f"size: {h.size} magic: {h.magic} compresscodec: {codec} crc: {h.crc} "
            f"isvalid: {str(_crc_ok(data, h)).lower()}")


def _text(raw: bytes) -> str:
    """Kafka's StringDecoder: new String(bytes, UTF_8), bad sequences replaced."""
    return raw.decode("utf-8", "replace")


def _control(key: bytes | None, value: bytes | None) -> str:
    kind = struct.unpack_from(">h", key, 2)[0] if key and len(key) >= 4 else -1
    if kind in (0, 1) and value and len(value) >= 6:
        return f" endTxnMarker: {'ABORT' if kind == 0 else 'COMMIT'} coordinatorEpoch: " \
               f"{struct.unpack_from('>i', value, 2)[0]}"
    return f" controlType: UNKNOWN({kind})"


def dump_log(path: Path, opts: argparse.Namespace, problems: Problems, out: IO[str]) -> None:
    print(f"Log starting offset: {_base_offset(path)}", file=out)
    data = _read(path)
    limit = min(len(data), opts.max_bytes)
    valid, last_offset = 0, -1
    for h in batches(data, 0, limit):
        print(_batch_line(data, h, valid), file=out)
        if opts.deep_iteration:
            try:
                records = decode_batch(data, h, check_crc=False)
            except CorruptRecordError as e:
                raise DumpError(f"Record batch at offset {h.base_offset} in {path} is corrupt: {e}") from None
            for r in records:
                if last_offset != -1 and r.offset != last_offset + 1:
                    problems.non_consecutive.setdefault(str(path.absolute()), []).insert(0, (last_offset, r.offset))
                last_offset = r.offset
                prefix = "| "
                line = ""
                if not opts.skip_record_metadata:
                    seq = -1 if h.base_sequence == -1 else (h.base_sequence + r.offset - h.base_offset) & 0x7FFFFFFF
                    line = (f"{prefix}offset: {r.offset} {_timestamp_type(h)}: {r.timestamp} "
                            f"keySize: {-1 if r.key is None else len(r.key)} "
                            f"valueSize: {-1 if r.value is None else len(r.value)} sequence: {seq} "
                            f"headerKeys: [{','.join(k for k, _ in r.headers)}]")
                    prefix = " "
                    if h.is_control:
                        line += _control(r.key, r.value)
                if opts.print_data_log and not h.is_control:
                    if r.key is not None:
                        line += f"{prefix}key: {_text(r.key)}"
                        prefix = " "
                    if r.value is not None:
                        line += f" payload: {_text(r.value)}"
                print(line, file=out)
        valid += h.size
    if len(data) - valid > 0 and opts.max_bytes == 2**31 - 1:
        print(f"Found {len(data) - valid} invalid bytes at the end of {path.name}", file=out)


def _entries(data: bytes, entry: struct.Struct) -> list[tuple[int, int]]:
    return [entry.unpack_from(data, i * entry.size) for i in range(len(data) // entry.size)]


def _check_size(path: Path, data: bytes, entry_size: int, what: str) -> None:
    if len(data) % entry_size:
        raise DumpError(f"{what} file {path.absolute()} is corrupt, found {len(data)} bytes which is neither "
                        f"positive nor a multiple of {entry_size}.")


def _sibling(path: Path, suffix: str) -> Path:
    return path.absolute().parent / (path.name.split(".")[0] + suffix)


def dump_index(path: Path, opts: argparse.Namespace, problems: Problems, out: IO[str]) -> None:
    base = _base_offset(path)
    log_data = _read(_sibling(path, ".log"))
    data = _read(path)
    entries = [(base + rel, pos) for rel, pos in _entries(data, OFFSET_ENTRY)]
    if not entries:
        print(f"{path} is empty.", file=out)
        return
    if opts.index_sanity_check:
        _check_size(path, data, OFFSET_ENTRY.size, "Index")
        if entries[-1][0] < base:
            raise DumpError(f"Corrupt index found, index file ({path.absolute()}) has non-zero size but the last "
                            f"offset is {entries[-1][0]} which is less than the base offset {base}.")
        print(f"{path} passed sanity check.", file=out)
        return
    for i, (offset, position) in enumerate(entries):
        if offset == base and i > 0:  # the zero-filled tail of a preallocated index
            return
        first = next(batches(log_data, position, position + opts.max_message_size), None)
        if first is None:
            raise DumpError(f"No batch at position {position} of {_sibling(path, '.log')} (index entry {offset})")
        if first.last_offset != offset:
            problems.index_mismatches.setdefault(str(path.absolute()), []).insert(0, (offset, first.last_offset))
        if not opts.verify_index_only:
            print(f"offset: {offset} position: {position}", file=out)


def offset_lookup(entries: list[tuple[int, int]], target: int) -> int:
    """The position Kafka's OffsetIndex.lookup gives for `target`: the same binary search over
    the same slots (a preallocated index's zero-filled tail included, so the answer matches
    Kafka's even there), hot section first; 0 when no entry is at or below the target."""
    def search(lo: int, hi: int) -> int:
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if entries[mid][0] > target:
                hi = mid - 1
            elif entries[mid][0] < target:
                lo = mid
            else:
                return mid
        return lo

    if not entries:
        return 0
    hot = max(0, len(entries) - 1 - 8192 // OFFSET_ENTRY.size)  # AbstractIndex.warmEntries
    if entries[hot][0] < target:
        slot = search(hot, len(entries) - 1)
    elif entries[0][0] > target:
        return 0
    else:
        slot = search(0, hot)
    return entries[slot][1]


def dump_time_index(path: Path, opts: argparse.Namespace, problems: Problems, out: IO[str]) -> None:
    base = _base_offset(path)
    log_data = _read(_sibling(path, ".log"))
    offsets = [(base + rel, pos) for rel, pos in _entries(_read(_sibling(path, ".index")), OFFSET_ENTRY)]
    data = _read(path)
    entries = [(ts, base + rel) for ts, rel in _entries(data, TIME_ENTRY)]
    if opts.index_sanity_check:
        _check_size(path, data, TIME_ENTRY.size, "Time index")
        if entries and entries[-1][0] < entries[0][0]:
            raise DumpError(f"Corrupt time index found, time index file ({path.absolute()}) has non-zero size but "
                            f"the last timestamp is {entries[-1][0]} which is less than the first timestamp "
                            f"{entries[0][0]}")
        if entries and entries[-1][1] < base:
            raise DumpError(f"Corrupt time index found, time index file ({path.absolute()}) has non-zero size but "
                            f"the last offset is {entries[-1][1]} which is less than the first offset {base}")
        print(f"{path} passed sanity check.", file=out)
        return
    name = str(path.absolute())
    prev = -1
    for i, (timestamp, offset) in enumerate(entries):
        if offset == base and i > 0:
            return
        # The offset index's floor entry for the offset (a lookup), then the batch holding it.
        position = offset_lookup(offsets, offset)
        batch = next((h for h in batches(log_data, position) if h.last_offset >= offset), None)
        if batch is None:
            problems.not_found.setdefault(name, []).append((offset, -1))
        elif batch.last_offset != offset:
            problems.not_found.setdefault(name, []).append((offset, batch.last_offset))
        else:
            newest = max([-1, *(r.timestamp for r in decode_batch(log_data, batch, check_crc=False))])
            if newest != timestamp:
                problems.time_mismatches.setdefault(name, []).append((timestamp, newest))
            if prev >= timestamp:
                problems.out_of_order.setdefault(name, []).append((timestamp, prev))
        if not opts.verify_index_only:
            print(f"timestamp: {timestamp} offset: {offset}", file=out)
        prev = timestamp


def dump_producer_snapshot(path: Path, out: IO[str], err: IO[str]) -> None:
    """Kafka's ProducerStateManager.readSnapshot layout (version 1, CRC-32C of the rest)."""
    data = _read(path)
    if len(data) < SNAPSHOT_HEAD.size + 4:
        print(f"Snapshot file {path} is corrupt: too short", file=err)
        return
    version, crc = SNAPSHOT_HEAD.unpack_from(data, 0)
    if version != 1:
        print(f"Snapshot contained an unknown file version {version}", file=err)
        return
    if crc32c.crc32c(data[SNAPSHOT_HEAD.size:]) != crc:
        print(f"Snapshot is corrupt (CRC is no longer valid). Stored crc: {crc}. "
              f"Computed crc: {crc32c.crc32c(data[SNAPSHOT_HEAD.size:])}", file=err)
        return
    (count,) = struct.unpack_from(">i", data, SNAPSHOT_HEAD.size)
    pos = SNAPSHOT_HEAD.size + 4
    for _ in range(count):
        pid, epoch, last_seq, last_offset, delta, ts, coord_epoch, txn_first = SNAPSHOT_ENTRY.unpack_from(data, pos)
        pos += SNAPSHOT_ENTRY.size
        txn = "OptionalLong.empty" if txn_first < 0 else f"OptionalLong[{txn_first}]"
        line = (f"producerId: {pid} producerEpoch: {epoch} coordinatorEpoch: {coord_epoch} "
                f"currentTxnFirstOffset: {txn} lastTimestamp: {ts} ")
        if last_seq >= 0:  # Kafka restores the last batch's metadata only when there is one
            first_seq = last_seq - delta if last_seq >= delta else 0x7FFFFFFF - (delta - last_seq) + 1
            line += (f"firstSequence: {first_seq} lastSequence: {last_seq} lastOffset: {last_offset} "
                     f"offsetDelta: {delta} timestamp: {ts}")
        print(line, file=out)


def build_parser() -> argparse.ArgumentParser:
    p = parser("dump-log", "Parse a log file and dump its contents to the console, useful for debugging a "
                           "seemingly corrupt log segment (kafka-dump-log.sh).")
    p.add_argument("--files", required=True, metavar="file1,file2,...",
                   help="REQUIRED: the comma separated list of data and index log files to be dumped")
    p.add_argument("--print-data-log", action="store_true", help="print the messages' content (implies "
                                                                 "--deep-iteration)")
    p.add_argument("--deep-iteration", action="store_true", help="print every record, not only batches")
    p.add_argument("--verify-index-only", action="store_true", help="verify the index without printing it")
    p.add_argument("--index-sanity-check", action="store_true",
                   help="only run the sanity check a broker runs on start-up")
    p.add_argument("--max-message-size", type=int, default=5 * 1024 * 1024, metavar="SIZE")
    p.add_argument("--max-bytes", type=int, default=2**31 - 1, metavar="SIZE",
                   help="read at most this many bytes of batches from each .log")
    p.add_argument("--skip-record-metadata", action="store_true", help="print only keys and payloads")
    p.add_argument("--value-decoder-class", nargs="?", const="", metavar="CLASS",
                   help="accepted for Kafka compatibility: values print as UTF-8 text (implies --print-data-log)")
    p.add_argument("--key-decoder-class", nargs="?", const="", metavar="CLASS",
                   help="accepted for Kafka compatibility: keys print as UTF-8 text (implies --print-data-log)")
    return p


def main(argv: list[str]) -> int:
    opts = build_parser().parse_args(argv)
    opts.print_data_log = opts.print_data_log or opts.value_decoder_class is not None \
        or opts.key_decoder_class is not None
    opts.deep_iteration = opts.deep_iteration or opts.print_data_log
    problems = Problems()
    out = sys.stdout
    try:
        for name in opts.files.split(","):
            path = Path(name)
            print(f"Dumping {name}", file=out)
            suffix = os.path.splitext(path.name)[1]
            if suffix == ".log":
                dump_log(path, opts, problems, out)
            elif suffix == ".index":
                dump_index(path, opts, problems, out)
            elif suffix == ".timeindex":
                dump_time_index(path, opts, problems, out)
            elif suffix == ".snapshot":
                dump_producer_snapshot(path, out, sys.stderr)
            else:
                print(f"Ignoring unknown file {name}", file=sys.stderr)
    except DumpError as e:
        out.flush()
        print(f"Error: {e}", file=sys.stderr)
        return 1
    problems.print(sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
