"""SIGTERM to a pytest run tears down what its tests started.

By default SIGTERM ends the interpreter at once: no fixture teardown, no `finally`, so every
broker, ZooKeeper, JVM and client thread a test started outlives the run (a CI runner that
times out, or an operator's `kill`, leaked them). Turned into KeyboardInterrupt, it unwinds
the running test like Ctrl-C: its `finally` blocks run, and pytest's session finish tears
down every fixture still set up. A second SIGTERM ends the run at once, as a second Ctrl-C
would be meant to.
"""

from __future__ import annotations

import signal
from types import FrameType


def _interrupt(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    raise KeyboardInterrupt("SIGTERM: tearing down what the tests started")


def install() -> None:
    """Call from the main thread (pytest_configure runs there)."""
    signal.signal(signal.SIGTERM, _interrupt)
