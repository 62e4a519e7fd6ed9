"""What moving a replica between log dirs costs the event loop (AlterReplicaLogDirs).

    .venv/bin/python bench/log_dir_move.py [MB]

A log of MB megabytes (default 200) of 1 KB records is moved to the other of two log dirs
by LogDirMove.run, the task AlterReplicaLogDirs starts, while a probe task on the same loop
wakes every millisecond: the longest gap it sees is the longest the partition (and every
other request) waited on the move; the swap's pause is timed on its own. Both dirs are on
the same file system, so this measures the page cache and fsync, not two disks.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from josefk.log.config import LogConfig
from josefk.log.log import Log
from josefk.log.log_manager import LogManager
from josefk.protocol.record_codec import Record, build_batch
from josefk.replication.alter_log_dirs import LogDirMove


@dataclass
class Replica:
    log: Log


async def measure(megabytes: int) -> None:
    base = Path(tempfile.mkdtemp(prefix="josefk-bench-move-"))
    try:
        manager = LogManager([base / "a", base / "b"], LogConfig())
        manager.startup()
        log = manager.get_or_create_log("t", 0)
        batch = build_batch([Record(i, 1000, b"k", b"x" * 1000) for i in range(100)])
        while log.size_in_bytes < megabytes * 1_000_000:
            log.append_as_leader(batch, 0)
        log.flush()
        dest = next(d for d in manager.log_dirs if d != manager.log_dir_of("t", 0))
        manager.create_future_log("t", 0, str(dest))
        move = LogDirMove(("t", 0), Replica(log), manager, 1048576)
        swap = move._swap
        pause = [0.0]

        def timed_swap(current: Log, future: Log) -> None:
            started = time.perf_counter()
            swap(current, future)
            pause[0] = time.perf_counter() - started

        move._swap = timed_swap  # type: ignore[method-assign]
        longest = [0.0]

        async def probe() -> None:
            last = time.perf_counter()
            while True:
                await asyncio.sleep(0.001)
                now = time.perf_counter()
                longest[0] = max(longest[0], now - last)
                last = now

        prober = asyncio.get_running_loop().create_task(probe())
        started = time.perf_counter()
        await move.run()
        elapsed = time.perf_counter() - started
        await asyncio.sleep(0.005)  # the probe's wake-up after the swap's turn
        prober.cancel()
        assert move.swapped
        size = manager.get_log("t", 0).size_in_bytes  # type: ignore[union-attr]
        print(f"moved {size / 1e6:.0f} MB in {elapsed:.2f} s ({size / 1e6 / elapsed:.0f} MB/s); longest loop "
              f"stall {longest[0] * 1000:.1f} ms; swap pause {pause[0] * 1000:.1f} ms")
        manager.shutdown()
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
