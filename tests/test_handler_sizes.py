"""KafkaApis and every handler class's file read in one sitting (issue 31): each under 600
lines. A handler file that grows past it is split by what its APIs share, as AdminApis,
ConfigApis and ControllerApis were carved out of KafkaApis."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 600


def handler_files() -> list[Path]:
    return sorted(p for package in ("server", "coordinator", "replication", "controller")
                  for p in (ROOT / package).rglob("*_apis.py"))


def test_every_handler_file_is_under_the_limit() -> None:
    files = handler_files()
    assert ROOT / "server" / "kafka_apis.py" in files and ROOT / "coordinator" / "group_apis.py" in files
    long = {str(p.relative_to(ROOT)): n for p in files if (n := len(p.read_text().splitlines())) >= LIMIT}
    assert not long, f"handler files of {LIMIT} lines or more: {long}"
