"""Bounded runs of josefk's fuzzers (fuzz/, docs/fuzzing.md): zero findings.

Each coverage-guided target runs in its own process for a fixed number of inputs from a
fixed seed (libFuzzer exits the process when done); the network fuzzer runs against a live
broker process. `make fuzz` runs them all for longer.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fuzz import network
from fuzz.run import TARGETS

ROOT = Path(__file__).resolve().parent.parent
RUNS = 20_000


@pytest.mark.parametrize("target", TARGETS)
def test_coverage_guided_target_finds_nothing(tmp_path, target):
    proc = subprocess.run(
        [sys.executable, "-m", "fuzz.run", target, "--work", str(tmp_path), f"-runs={RUNS}", "-seed=1",
         "-timeout=20", "-print_final_stats=1"],
        cwd=ROOT, capture_output=True, text=True, timeout=280)
    tail = proc.stderr[-6000:]
    assert proc.returncode == 0, tail
    assert f"Done {RUNS} runs" in proc.stderr, tail
    assert not list((tmp_path / "crashes").iterdir()), tail


def test_network_fuzzer_finds_nothing(tmp_path):
    report = network.run(tmp_path, requests=5_000, connections=16, seed=1)
    assert report.requests == 5_000, report.summary()
    assert report.outcomes["answered"] > 500, report.summary()  # the mutations still reach the handlers
    assert report.broker_alive, report.summary()
    assert not report.stalls, report.stalls[:5]
    assert not report.bad_log_lines, report.bad_log_lines[:20]
    assert report.canary_sent > 0 and not report.canary_errors, report.canary_errors[:5]
    assert report.canary_received == report.canary_sent, report.summary()
    assert report.rss_peak_mb < 512, report.summary()
