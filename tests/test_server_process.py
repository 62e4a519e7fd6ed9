"""A server a test starts never outlives a start that is cut short (harness/process.py).

The controller race test once hit pytest-timeout while restarting a josefk broker: the timeout's
exception left the start-up wait, the new process had no owner yet, and it ran on after pytest
ended. Whatever interrupts the wait (a timeout, SIGTERM's KeyboardInterrupt), the process goes."""

from __future__ import annotations

import signal
import subprocess
import sys
from types import FrameType

import pytest

from harness.net import free_port
from harness.process import ServerProcess

pytestmark = pytest.mark.integration  # the wait connects to 127.0.0.1


SLEEPER = (sys.executable, "-c", "import time; time.sleep(60)")


class Interrupted(Exception):
    pass


def running(marker: str) -> bool:
    """Whether a process with `marker` (letters and dashes only) in its command line runs."""
    return subprocess.run(["pgrep", "-f", marker], capture_output=True).returncode == 0


def test_a_server_whose_start_is_interrupted_is_killed() -> None:
    marker = "josefk-test-never-listens-a"  # an argument to find it by; it never listens

    def interrupt(_signum: int, _frame: FrameType | None) -> None:
        raise Interrupted

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        with pytest.raises(Interrupted):
            ServerProcess([*SLEEPER, marker], "127.0.0.1", free_port(), start_timeout=60)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert not running(marker)


def test_a_server_that_never_listens_is_killed_at_its_timeout() -> None:
    marker = "josefk-test-never-listens-b"
    with pytest.raises(RuntimeError, match="did not start within 1 s"):
        ServerProcess([*SLEEPER, marker], "127.0.0.1", free_port(), start_timeout=1)
    assert not running(marker)
