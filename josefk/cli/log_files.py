"""log4j's DailyRollingFileAppender with Kafka's DatePattern '.'yyyy-MM-dd-HH: one file per hour.

The current hour's lines go to server.log; at the first line of a later hour the file becomes
server.log.2026-11-29-01 (the hour it holds, local time as in the lines) and a new server.log
starts, so operators find an hour's lines by name as with Kafka. Like log4j, nothing is deleted.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

HOUR_PATTERN = "%Y-%m-%d-%H"


def hour_of(seconds: float) -> str:
    return time.strftime(HOUR_PATTERN, time.localtime(seconds))


class HourlyRollingFileHandler(logging.FileHandler):
    """Appends to `filename` and rolls it each hour; `clock` (seconds) is injectable for tests."""

    def __init__(self, filename: str | Path, clock: Callable[[], float] = time.time) -> None:
        path = Path(filename)
        # A file left by an earlier run belongs to the hour it was last written in.
        self.hour = hour_of(path.stat().st_mtime if path.exists() and path.stat().st_size else clock())
        self.clock = clock
        super().__init__(path, encoding="utf-8")

    def emit(self, record: logging.LogRecord) -> None:
        hour = hour_of(self.clock())
        if hour > self.hour:
            self._roll(hour, record)
        super().emit(record)

    def _roll(self, hour: str, record: logging.LogRecord) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        try:
            os.replace(self.baseFilename, f"{self.baseFilename}.{self.hour}")
        except OSError:  # reported on stderr; as log4j, it goes on appending to the same file
            self.handleError(record)
        self.hour = hour
