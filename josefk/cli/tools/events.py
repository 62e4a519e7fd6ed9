"""The JSON-lines events of Kafka's verifiable clients, as Kafka's system tests read them."""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any


class JsonEvents:
    """One compact JSON object a line on stdout: `timestamp` and `name` first, as Kafka's Jackson
    classes order them, then the event's fields. Client callbacks print from the client's own
    thread, hence the lock; a reader that went away (`| head`) sets `broken`, for the tool to stop
    and exit as every josefk tool does then."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.broken = threading.Event()

    def emit(self, name: str, **fields: Any) -> None:
        line = json.dumps({"timestamp": int(time.time() * 1000), "name": name, **fields}, separators=(",", ":"))
        with self._lock:
            if self.broken.is_set():
                return
            try:
                sys.stdout.write(line + "\n")
                sys.stdout.flush()
            except BrokenPipeError:
                self.broken.set()

    def raise_if_broken(self) -> None:
        """Re-raise the closed pipe in the main thread, where `josefk` turns it into exit status 141."""
        if self.broken.is_set():
            raise BrokenPipeError


def partitions(tps: Any) -> list[dict[str, Any]]:
    """Kafka's TopicPartition serialization: [{"topic", "partition"}], in partition order."""
    return [{"topic": tp.topic, "partition": tp.partition} for tp in sorted(tps, key=lambda t: (t.topic, t.partition))]
