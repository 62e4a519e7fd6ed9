"""Running the broker as an operator does: --pid-file and broker-stop, --log-config (Kafka's
level names and layout, per-logger levels, a rotating file), the request log, --sample-config."""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaProducer

from harness.net import free_port, port_open
from josefk.cli import broker as broker_cli
from josefk.cli import log_config
from josefk.cli.broker_stop import broker_pids

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] (TRACE|DEBUG|INFO|WARN|ERROR|FATAL) .* \([\w.$]+\)$",
                  re.DOTALL)


def records(text: str) -> list[str]:
    """A log file's records: a line, with the lines of a multi-line message (the KafkaConfig dump)."""
    return [r.rstrip("\n") for r in re.split(r"(?m)^(?=\[\d{4}-)", text) if r]


class Broker:
    """`python -m josefk broker` with the given CLI arguments, until it answers on its port."""

    def __init__(self, tmp_path: Path, *args: str) -> None:
        self.port = free_port()
        self.log_dir = tmp_path / "data"
        self.out = tmp_path / "broker.out"
        config = tmp_path / "server.properties"
        config.write_text("")  # Kafka's defaults, but for the overrides below
        cmd = [sys.executable, "-m", "josefk", "broker", str(config), "--override", f"log.dirs={self.log_dir}",
               "--override", f"listeners=PLAINTEXT://127.0.0.1:{self.port}", *args]
        with open(self.out, "wb") as out:
            self.proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL)
        while not port_open(self.port):
            try:  # the pause between attempts, and the check that the broker did not exit
                code = self.proc.wait(timeout=0.1)
            except subprocess.TimeoutExpired:
                continue
            raise AssertionError(f"broker exited with {code}: {self.out.read_text()}")

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
        return self.proc.wait(timeout=60)


@pytest.mark.integration
def test_broker_stop_sends_sigterm_and_waits_for_the_clean_shutdown(tmp_path: Path) -> None:
    pid_file = tmp_path / "run" / "josefk.pid"
    broker = Broker(tmp_path, "--pid-file", str(pid_file))
    try:
        assert pid_file.read_text().strip() == str(broker.proc.pid)
        assert broker.proc.pid in broker_pids()  # what broker-stop without --pid-file would stop
        stop = subprocess.run([sys.executable, "-m", "josefk", "broker-stop", "--pid-file", str(pid_file)],
                              capture_output=True, text=True, timeout=120)
        assert stop.returncode == 0, stop.stderr
        assert broker.proc.poll() == 0  # already gone when broker-stop returned: it waited
        assert not pid_file.exists()
        assert (broker.log_dir / ".kafka_cleanshutdown").exists()
    finally:
        broker.stop()
    again = subprocess.run([sys.executable, "-m", "josefk", "broker-stop", "--pid-file", str(pid_file)],
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 1 and "cannot read pid file" in again.stderr and "Traceback" not in again.stderr


@pytest.mark.unit
def test_broker_stop_refuses_a_pid_file_without_a_pid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from josefk.cli import broker_stop
    (tmp_path / "pid").write_text("josefk\n")
    assert broker_stop.main(["--pid-file", str(tmp_path / "pid")]) == 1
    assert "does not hold a pid" in capsys.readouterr().err


@pytest.mark.integration
def test_log_config_levels_layout_and_rotation(tmp_path: Path) -> None:
    config = {
        "version": 1,
        "formatters": {"kafka": {"format": log_config.LAYOUT}},
        "handlers": {
            "stdout": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "kafka"},
            "requests": {"class": "logging.handlers.RotatingFileHandler", "filename": "logs-out/requests.log",
                         "maxBytes": 2000, "backupCount": 2, "formatter": "kafka"},
        },
        "loggers": {
            "kafka.request.logger": {"level": "DEBUG", "handlers": ["requests"], "propagate": False},
            "kafka.log.LogManager": {"level": "WARN"},
        },
        "root": {"level": "INFO", "handlers": ["stdout"]},
    }
    (tmp_path / "log.json").write_text(json.dumps(config))
    broker = Broker(tmp_path, "--log-config", "log.json", "--override", "no.such.key=1")
    try:
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
        for i in range(30):
            producer.send("rotated", f"record {i}".encode()).get(timeout=30)
        producer.close()
    finally:
        assert broker.stop() == 0
    lines = records(broker.out.read_text())
    assert lines and all(LINE.match(line) for line in lines), lines
    assert any(" WARN The configuration 'no.such.key' was supplied but isn't a known config." in line
               for line in lines)
    assert not any("WARNING" in line for line in lines)
    assert any(" INFO " in line and "(kafka.server.KafkaServer)" in line for line in lines)
    assert not any("(kafka.log.LogManager)" in line for line in lines)  # its INFO lines are below WARN
    assert not any("(josefk." in line for line in lines)  # Kafka's logger names
    assert not any("Completed request" in line for line in lines)  # the request log went to its file only
    files = sorted(p.name for p in (tmp_path / "logs-out").iterdir())
    assert files == ["requests.log", "requests.log.1", "requests.log.2"]  # rotated, two backups kept
    produce = [line for name in files for line in (tmp_path / "logs-out" / name).read_text().splitlines()
               if '"requestApiKeyName":"PRODUCE"' in line]
    assert produce and all(LINE.match(line) and " DEBUG Completed request:{" in line for line in produce)
    entry = json.loads(produce[-1].split("Completed request:", 1)[1].rsplit(" (kafka.request.logger)", 1)[0])
    assert entry["requestHeader"]["requestApiVersion"] >= 0 and entry["requestHeader"]["clientId"]
    assert entry["clientAddress"].startswith("127.0.0.1:") and entry["totalTimeMs"] >= 0
    assert (entry["securityProtocol"], entry["principal"], entry["listener"]) == \
        ("PLAINTEXT", "User:ANONYMOUS", "PLAINTEXT")


def test_request_log_only_when_enabled(broker, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)  # the request logger inherits INFO: off
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap, client_id="quiet")
    admin.list_topics()
    assert not [r for r in caplog.records if r.name == "kafka.request.logger"]
    caplog.set_level(logging.DEBUG, logger="kafka.request.logger")
    admin.list_topics()
    admin.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "kafka.request.logger"]
    assert any('"requestApiKeyName":"METADATA"' in line and '"clientId":"quiet"' in line for line in lines), lines
    assert all(r.levelno == logging.DEBUG for r in caplog.records if r.name == "kafka.request.logger")


@pytest.mark.unit
def test_kafka_level_names() -> None:
    assert log_config.level_of("warn") == log_config.level_of("WARNING") == logging.WARNING
    assert log_config.level_of("TRACE") == 5 and log_config.level_of("fatal") == logging.CRITICAL
    with pytest.raises(log_config.LogConfigError, match="unknown log level 'LOUD'"):
        log_config.level_of("LOUD")
    record = logging.LogRecord("kafka.server.KafkaServer", logging.WARNING, __file__, 1, "careful", None, None)
    assert LINE.match(logging.Formatter(log_config.LAYOUT).format(record))
    assert " WARN careful (kafka.server.KafkaServer)" in logging.Formatter(log_config.LAYOUT).format(record)


@pytest.mark.unit
def test_sample_config_is_the_shipped_server_properties(capsys: pytest.CaptureFixture[str]) -> None:
    assert broker_cli.main(["--sample-config"]) == 0
    assert capsys.readouterr().out == (ROOT / "config" / "server.properties").read_text()


@pytest.mark.unit
def test_systemd_unit_runs_existing_commands(capsys: pytest.CaptureFixture[str]) -> None:
    """packaging/josefk.service: the settings the brief names, and its commands' tools and
    options exist (a renamed flag would make the service fail at its first start)."""
    import configparser
    import importlib
    import shlex

    from josefk.main import TOOLS

    unit = configparser.ConfigParser(interpolation=None, strict=False)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(ROOT / "packaging" / "josefk.service")
    service = unit["Service"]
    assert (service["Type"], service["Restart"], service["LimitNOFILE"]) == ("simple", "on-failure", "100000")
    for key in ("ExecStart", "ExecStop"):
        program, tool, *args = shlex.split(service[key])
        assert program.endswith("/bin/josefk") and tool in TOOLS
        with pytest.raises(SystemExit):
            module, function = TOOLS[tool]
            getattr(importlib.import_module(module), function)(["--help"])
        usage = capsys.readouterr().out
        for flag in (a for a in args if a.startswith("--")):
            assert flag in usage, f"{key}: josefk {tool} has no {flag}"
