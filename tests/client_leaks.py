"""Kafka clients a test leaves running after it ends.

A client nobody closed keeps its threads: librdkafka's native ones (named `rdk:*`) and
kafka-python's IO and sender threads. Left past its broker it retries for the rest of the
session, logging into other tests' output, and a client of a network namespace would send
its SYNs wherever the subnet then routes. tests/conftest.py snapshots these threads before
each test and fails the test that leaves new ones, once a collection (a client kept alive
only by a reference cycle) and a grace period have not ended them.
"""

from __future__ import annotations

import gc
import os
import threading
import time
from pathlib import Path

# librdkafka names its threads rdk:main (one per client instance), rdk:broker-N, ...: an instance is
# counted by its main thread, since a live instance starts broker threads whenever it meets a broker,
# and those would be blamed on whichever test is running then.
LIBRDKAFKA_THREAD = "rdk:main"
KAFKA_PYTHON_THREADS = ("kafka-io-",)  # kafka-python 3's IO loop; its producer adds "<client id>-network-thread"
KAFKA_PYTHON_SENDER = "-network-thread"


def client_threads() -> set[str]:
    """This process's Kafka client threads, each as 'name (id)'."""
    found = set()
    for tid in os.listdir("/proc/self/task"):
        try:
            name = Path(f"/proc/self/task/{tid}/comm").read_text().strip()
        except (FileNotFoundError, ProcessLookupError):  # ended while listed
            continue
        if name == LIBRDKAFKA_THREAD:
            found.add(f"librdkafka {name} ({tid})")
    for thread in threading.enumerate():
        if thread.name.startswith(KAFKA_PYTHON_THREADS) or thread.name.endswith(KAFKA_PYTHON_SENDER):
            found.add(f"kafka-python {thread.name} ({thread.native_id})")
    return found


def leaked_since(before: set[str], grace: float = 10.0) -> list[str]:
    """Client threads started since `before` that are still running after `grace` seconds,
    collecting garbage meanwhile: empty when the test stopped every client it started."""
    deadline = time.monotonic() + grace
    while new := client_threads() - before:
        if time.monotonic() >= deadline:
            return sorted(new)
        gc.collect()
        time.sleep(0.05)
    return []
