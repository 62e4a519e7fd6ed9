"""A pytest run sent SIGTERM (a CI timeout, an operator's kill) still stops what its tests
started: the harness turns SIGTERM into KeyboardInterrupt (tests/harness/sigterm.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit
TESTS = Path(__file__).parent


def _wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split()[2] != "Z"


def test_sigterm_runs_the_running_tests_teardown(tmp_path: Path) -> None:
    env = {**os.environ, "SIGTERM_VICTIM_DIR": str(tmp_path)}
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(TESTS / "data" / "sigterm_victim.py")],
        cwd=TESTS.parent, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    ready = tmp_path / "ready"
    child = 0
    try:
        _wait_for(lambda: ready.exists() and ready.read_text() != "" or run.poll() is not None, 120, "the victim test")
        assert run.poll() is None, run.communicate()[0].decode()
        child = int(ready.read_text())
        run.send_signal(signal.SIGTERM)
        output = run.communicate(timeout=60)[0].decode()
        assert (tmp_path / "finally").exists(), output
        assert (tmp_path / "fixture-teardown").exists(), output
        assert not _alive(child), output
        assert run.returncode == pytest.ExitCode.INTERRUPTED, output
    finally:
        run.kill()
        run.wait()
        if child and _alive(child):
            os.kill(child, signal.SIGKILL)
