"""Each way a broker can fail to start ends in ONE line naming the cause, a non-zero exit
status and no traceback: a real `python -m josefk broker` process for each."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.josefk import BrokerProcess
from harness.net import free_port
from harness.zookeeper import ZooKeeperServer

pytestmark = pytest.mark.integration


def start(tmp_path: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "josefk", "broker", *args], cwd=tmp_path, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def the_failure(result: subprocess.CompletedProcess[str]) -> str:
    """The one line that says why: a FATAL log line or the CLI's own `josefk broker:` line."""
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "Traceback" not in output, output
    lines = [line for line in output.splitlines() if " FATAL " in line or line.startswith("josefk broker:")]
    assert len(lines) == 1, output
    return lines[0]


def empty_config(tmp_path: Path) -> str:
    """A server.properties that keeps Kafka's defaults (`josefk broker` needs one, as Kafka)."""
    path = tmp_path / "server.properties"
    path.write_text("")
    return str(path)


def overrides(log_dir: Path, port: int | str = 0, **more: str) -> list[str]:
    args = [empty_config(log_dir.parent), "--override", f"log.dirs={log_dir}",
            "--override", f"listeners=PLAINTEXT://127.0.0.1:{port}"]
    for key, value in more.items():
        args += ["--override", f"{key.replace('_', '.')}={value}"]
    return args


def test_zookeeper_unreachable_gives_up_after_the_connection_timeout(tmp_path: Path) -> None:
    nobody = free_port()  # nothing listens there
    began = time.monotonic()
    result = start(tmp_path, *overrides(tmp_path / "logs", zookeeper_connect=f"127.0.0.1:{nobody}",
                                        zookeeper_connection_timeout_ms="1500"), timeout=30)
    line = the_failure(result)
    assert f"Timed out waiting for connection to ZooKeeper at 127.0.0.1:{nobody}" in line
    assert "zookeeper.connection.timeout.ms=1500" in line
    assert time.monotonic() - began < 15  # 1.5 s of connecting, plus the interpreter's start and exit


def test_log_dir_locked_by_another_broker(tmp_path: Path) -> None:
    first = BrokerProcess(tmp_path / "logs")
    try:
        result = start(tmp_path, *overrides(tmp_path / "logs"))
        line = the_failure(result)
        assert f"Failed to acquire lock on file .lock in {tmp_path / 'logs'}" in line
        with socket.create_connection(("127.0.0.1", first.port), timeout=5):
            pass  # the first broker still serves
    finally:
        assert first.stop() == 0


def test_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = start(tmp_path, *overrides(tmp_path / "logs", port))
    line = the_failure(result)
    assert f"Socket server failed to bind to 127.0.0.1:{port}: Address already in use." in line


def test_bad_config_value(tmp_path: Path) -> None:
    line = the_failure(start(tmp_path, *overrides(tmp_path / "logs", num_network_threads="three")))
    assert line == "josefk broker: Invalid value three for configuration num.network.threads: Not a number of type INT"


@pytest.mark.parametrize("kind", ["directory", "missing", "not text"])
def test_unreadable_config_file(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "server.properties"
    if kind == "directory":
        path.mkdir()
    elif kind == "not text":
        path.write_bytes(b"broker.id=\xff\xfe\x00\n")
    line = the_failure(start(tmp_path, str(path)))
    expected = {"directory": f"josefk broker: cannot read config file {path}: Is a directory",
                "missing": f"josefk broker: cannot read config file {path}: No such file or directory",
                "not text": f"josefk broker: config file {path} is not UTF-8 text"}[kind]
    assert line.startswith(expected), line


def test_unreadable_log_config(tmp_path: Path) -> None:
    (tmp_path / "log.json").write_text('{"version": 1, "root": {"level": "LOUD"}}')
    line = the_failure(start(tmp_path, empty_config(tmp_path), "--log-config", str(tmp_path / "log.json")))
    assert line.startswith(f"josefk broker: invalid log config {tmp_path / 'log.json'}")


def test_log_dir_that_cannot_be_created_leaves_stdout(tmp_path: Path) -> None:
    """As log4j without a file it can open (a systemd unit started in /): the broker says
    why and logs to stdout, here until the next start-up problem stops it."""
    (tmp_path / "a-file").write_text("")
    result = start(tmp_path, empty_config(tmp_path), "--log-dir", str(tmp_path / "a-file" / "logs"),
                   "--override", "broker.id=one")
    assert re.search(rf"\] ERROR cannot create the folder of log file {re.escape(str(tmp_path / 'a-file' / 'logs'))}/"
                     r"\S+: .*; logging to stdout only \(kafka\.server\.KafkaServer\)", result.stdout), result.stdout
    assert "josefk broker: Invalid value one for configuration broker.id" in the_failure(result)


def test_log_dir_from_the_environment_and_the_option(tmp_path: Path) -> None:
    """--log-dir, else $LOG_DIR (kafka-run-class.sh's), else ./logs."""
    from josefk.cli.log_config import logs_dir
    assert logs_dir(tmp_path / "option") == tmp_path / "option"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("LOG_DIR", str(tmp_path / "env"))
        assert logs_dir(None) == tmp_path / "env"
        env.delenv("LOG_DIR")
        assert logs_dir(None) == Path("logs")


def test_duplicate_broker_id_says_so_and_stops_on_sigterm(tmp_path: Path, zookeeper: ZooKeeperServer) -> None:
    """Kafka refuses a second broker with a registered broker.id; josefk first waits out a
    crashed predecessor's session, so it must say why it waits and still obey SIGTERM."""
    first = BrokerProcess(tmp_path / "first", overrides={"zookeeper.connect": zookeeper.connect, "broker.id": "1"})
    try:
        args = overrides(tmp_path / "second", zookeeper_connect=zookeeper.connect, broker_id="1")
        second = subprocess.Popen([sys.executable, "-m", "josefk", "broker", *args], cwd=tmp_path, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            output = []
            assert second.stdout is not None
            for line in second.stdout:  # ends at EOF if the broker exits instead
                output.append(line)
                if "/brokers/ids/1 already exists" in line:
                    break
            assert "another broker holds broker.id 1" in "".join(output), "".join(output)
            asked = time.monotonic()
            second.send_signal(signal.SIGTERM)
            rest, _ = second.communicate(timeout=30)
            assert second.returncode == 0, "".join(output) + rest
            assert time.monotonic() - asked < 15, "".join(output) + rest
            assert "Traceback" not in rest
        finally:
            if second.poll() is None:
                second.kill()
                second.communicate()
        with socket.create_connection(("127.0.0.1", first.port), timeout=5):
            pass  # the registered broker still serves
    finally:
        assert first.stop() == 0


def test_duplicate_broker_id_fails_once_the_wait_is_over(tmp_path: Path, zookeeper: ZooKeeperServer) -> None:
    first = BrokerProcess(tmp_path / "first", overrides={"zookeeper.connect": zookeeper.connect, "broker.id": "1"})
    try:
        result = start(tmp_path, *overrides(tmp_path / "second", zookeeper_connect=zookeeper.connect, broker_id="1",
                                            zookeeper_session_timeout_ms="1000"), timeout=90)
        line = the_failure(result)
        assert "broker.id 1 is already registered at /brokers/ids/1" in line
        assert "is another broker running with broker.id=1?" in line
    finally:
        assert first.stop() == 0
