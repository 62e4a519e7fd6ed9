"""packaging/'s systemd units and the sample config agree on where data goes: log.dirs is
absolute and under the directory systemd creates for User=josefk (StateDirectory=), so the
unit starts with the sample config as it is."""

from __future__ import annotations

import configparser
from pathlib import Path, PurePosixPath

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parent.parent


def _service(name: str) -> configparser.SectionProxy:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]  # systemd keys are case-sensitive
    unit.read_string((ROOT / "packaging" / name).read_text())
    return unit["Service"]


def _log_dirs() -> list[PurePosixPath]:
    lines = (ROOT / "config" / "server.properties").read_text().splitlines()
    [value] = [line.partition("=")[2] for line in lines if line.startswith("log.dirs=")]
    return [PurePosixPath(d) for d in value.split(",")]


@pytest.mark.parametrize("name", ["josefk.service", "josefk-host.service"])
def test_the_sample_log_dirs_live_in_the_units_state_directory(name: str) -> None:
    service = _service(name)
    assert (service["User"], service["Group"]) == ("josefk", "josefk")
    state = PurePosixPath("/var/lib") / service["StateDirectory"]
    for log_dir in _log_dirs():
        assert log_dir.is_absolute() and state in log_dir.parents, (log_dir, state)


def test_each_template_instance_has_a_state_directory_of_its_own() -> None:
    service = _service("josefk@.service")
    assert service["User"] == "josefk" and "%i" in service["StateDirectory"]
    assert service["StateDirectory"].startswith("josefk/")


@pytest.mark.parametrize("name", ["josefk.service", "josefk@.service", "josefk-host.service"])
def test_kafka_log_files_go_to_the_units_logs_directory(name: str) -> None:
    """The broker writes server.log and the rest to $LOG_DIR (else ./logs, which is / for a unit)."""
    service = _service(name)
    assert service["Environment"] == f"LOG_DIR=/var/log/{service['LogsDirectory']}"


def test_the_host_unit_runs_josefk_host_with_options_it_has(capsys: pytest.CaptureFixture[str]) -> None:
    import shlex

    from josefk.cli import broker_stop, host

    service = _service("josefk-host.service")
    for key, tool, main in (("ExecStart", "host", host.main), ("ExecStop", "broker-stop", broker_stop.main)):
        program, name, *args = shlex.split(service[key])
        assert program.endswith("/bin/josefk") and name == tool
        with pytest.raises(SystemExit):
            main(["--help"])
        usage = capsys.readouterr().out
        for flag in (a for a in args if a.startswith("--")):
            assert flag in usage, f"{key}: josefk {tool} has no {flag}"
    assert service["ExecStart"].split("--pid-file ")[1] == service["ExecStop"].split("--pid-file ")[1].split()[0]
