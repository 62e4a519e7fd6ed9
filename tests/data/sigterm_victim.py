"""Run by tests/test_sigterm_teardown.py in a pytest of its own, then sent SIGTERM: a
fixture's child process and a test's `finally` must both be cleaned up."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit
OUT = Path(os.environ["SIGTERM_VICTIM_DIR"])


@pytest.fixture
def child() -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(["sleep", "600"])
    yield proc
    proc.terminate()
    proc.wait(timeout=10)
    (OUT / "fixture-teardown").write_text(str(proc.returncode))


def test_waits_for_sigterm(child: subprocess.Popen[bytes]) -> None:
    try:
        (OUT / "ready").write_text(str(child.pid))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        (OUT / "finally").write_text("ran")
