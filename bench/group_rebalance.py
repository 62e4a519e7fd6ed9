"""Time from the first member joining to a stable group of three, for different
group.initial.rebalance.delay.ms settings (issue 4's benchmark; not a test).

    .venv/bin/python bench/group_rebalance.py [--delays 0,3000] [--runs 3]

Three kafka-python consumers subscribe to a 3-partition topic, started 100 ms apart, on a
broker started fresh per setting. "Stable" is the moment every member holds exactly one
partition. The broker runs as a subprocess on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kafka import KafkaAdminClient, KafkaConsumer  # noqa: E402
from kafka.admin import NewTopic  # noqa: E402

from harness.josefk import BrokerProcess  # noqa: E402


def one_run(bootstrap: str, group: str) -> float:
    assignments: dict[int, int] = {}
    stop = threading.Event()
    stable = threading.Event()

    def member(i: int) -> None:
        consumer = KafkaConsumer("rebalance", bootstrap_servers=bootstrap, group_id=group,
                                 session_timeout_ms=10000, heartbeat_interval_ms=500)
        while not stop.is_set():
            consumer.poll(timeout_ms=50)
            assignments[i] = len(consumer.assignment())
            if len(assignments) == 3 and all(n == 1 for n in assignments.values()):
                stable.set()
        consumer.close()

    start = time.perf_counter()
    threads = []
    for i in range(3):
        threads.append(threading.Thread(target=member, args=(i,)))
        threads[-1].start()
        time.sleep(0.1)
    stable.wait(60)
    elapsed = time.perf_counter() - start
    stop.set()
    for t in threads:
        t.join()
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delays", default="0,3000")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for delay in [int(d) for d in args.delays.split(",")]:
        with tempfile.TemporaryDirectory() as tmp:
            broker = BrokerProcess(Path(tmp), overrides={"group.initial.rebalance.delay.ms": str(delay)})
            try:
                admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
                admin.create_topics([NewTopic("rebalance", 3, 1)])
                admin.close()
                times = [one_run(broker.bootstrap, f"g{delay}-{i}") for i in range(args.runs)]
            finally:
                broker.stop()
        print(f"group.initial.rebalance.delay.ms={delay:5d}: first join -> stable group of 3: "
              f"median {statistics.median(times):.2f} s (runs: {', '.join(f'{t:.2f}' for t in times)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
