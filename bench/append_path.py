"""What checking input costs on the produce path, as ratios measured in one run.

    .venv/bin/python bench/append_path.py

1. LogValidator: leader appends of one batch of 1,000 records of 100 B through
   Log.append_as_leader, with the record walk (and decompression) of log/validator.py on
   and then replaced by a no-op; the ratio is throughput with / without.
2. FrameDecoder: 1 MiB and 16 MiB frames received in 64 KiB reads (frames over 1 MiB
   grow their buffer as bytes arrive instead of allocating the declared size).
Each figure is the best of three 1-second rounds.
"""

from __future__ import annotations

import struct
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from josefk.log import log as log_module  # noqa: E402
from josefk.log.config import LogConfig  # noqa: E402
from josefk.log.log import Log  # noqa: E402
from josefk.protocol import compression as codecs  # noqa: E402
from josefk.protocol.framing import FrameDecoder  # noqa: E402
from josefk.protocol.record_codec import Record, build_batch  # noqa: E402

CODECS = {"none": codecs.NONE, "gzip": codecs.GZIP, "snappy": codecs.SNAPPY, "lz4": codecs.LZ4,
          "zstd": codecs.ZSTD}


def best_rate(work: Callable[[], int], rounds: int = 3, seconds: float = 1.0) -> float:
    """Units of `work` per second, best of `rounds`."""
    best = 0.0
    for _ in range(rounds):
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            done += work()
        best = max(best, done / (time.perf_counter() - start))
    return best


def append_rate(codec: int, validate: bool) -> float:
    records = [Record(i, 1_700_000_000_000 + i, None, b"v" * 100) for i in range(1000)]
    batch = build_batch(records, compression=codec)
    original = log_module.validate_batches
    if not validate:
        log_module.validate_batches = lambda *args, **kwargs: None
    try:
        with tempfile.TemporaryDirectory() as tmp:
            log = Log(Path(tmp) / "t-0", LogConfig())

            def one() -> int:
                log.append_as_leader(batch, 0, now_ms=1_700_000_000_000)
                return len(records)

            rate = best_rate(one)
            log.close()
    finally:
        log_module.validate_batches = original
    return rate


def decoder_rate(size: int) -> float:
    wire = struct.pack(">i", size) + b"x" * size
    decoder = FrameDecoder(1 << 30)

    def one() -> int:
        pos = 0
        while pos < len(wire):
            buffer = decoder.get_buffer()
            n = min(len(buffer), 65536, len(wire) - pos)
            buffer[:n] = wire[pos : pos + n]
            pos += n
            decoder.buffer_updated(n)
        return size

    return best_rate(one) / 2**20


def main() -> None:
    print("| codec | records/s, validated | records/s, not validated | ratio |")
    print("|---|---|---|---|")
    for name, codec in CODECS.items():
        on, off = append_rate(codec, True), append_rate(codec, False)
        print(f"| {name} | {on:,.0f} | {off:,.0f} | {on / off:.2f} |")
    print()
    print("| frame | FrameDecoder MiB/s |")
    print("|---|---|")
    for size in (1 << 20, 16 << 20):
        print(f"| {size >> 20} MiB | {decoder_rate(size):,.0f} |")


if __name__ == "__main__":
    main()
