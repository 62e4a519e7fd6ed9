"""What an operator tries first with any josefk command (josefk issue 30, "Tools"), run as the real
`josefk` executable: `--version`, a closed pipe (`josefk ... | head`), `josefk broker` without a
config file and bad config values."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from josefk import __version__
from josefk.main import TOOLS

JOSEFK = str(Path(sys.executable).with_name("josefk"))


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([JOSEFK, *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("tool", ["", *sorted(TOOLS)])
def test_version_prints_josefk_version_and_exits_0(tool: str) -> None:
    r = run(*filter(None, [tool, "--version"]))
    assert (r.returncode, r.stdout, r.stderr) == (0, f"{__version__}\n", "")


@pytest.fixture
def closed_pipe() -> Iterator[int]:
    """The write end of a pipe whose reader has already gone, as `| head` leaves it."""
    read, write = os.pipe()
    os.close(read)
    yield write
    os.close(write)


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["topics", "--help"], ["broker", "--version"]],
                         ids=" ".join)
def test_closed_stdout_ends_quietly(args: list[str], closed_pipe: int) -> None:
    r = subprocess.run([JOSEFK, *args], stdout=closed_pipe, stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.stderr == ""
    assert r.returncode in (0, 128 + signal.SIGPIPE)  # argparse's --help swallows the write error itself


def test_closed_stdout_while_a_tool_writes(tmp_path: Path, closed_pipe: int) -> None:
    """dump-log writes its output through print(): the tool stops at the first write, as `cat` would."""
    segment = tmp_path / "00000000000000000000.log"
    segment.write_bytes(b"")
    r = subprocess.run([JOSEFK, "dump-log", "--files", str(segment)], stdout=closed_pipe, stderr=subprocess.PIPE,
                       text=True, timeout=60)
    assert (r.returncode, r.stderr) == (128 + signal.SIGPIPE, "")


def test_broker_without_a_config_file_prints_usage(tmp_path: Path) -> None:
    """kafka-server-start.sh prints its usage: no broker on 9092 writing /tmp/kafka-logs."""
    r = subprocess.run([JOSEFK, "broker", "--override", f"log.dirs={tmp_path / 'logs'}"], capture_output=True,
                       text=True, timeout=60, cwd=tmp_path)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("USAGE: josefk broker server.properties [--override property=value]*\n")
    assert not (tmp_path / "logs").exists()


@pytest.mark.parametrize(("line", "error"), [
    ("num.partitions=abc", "Invalid value abc for configuration num.partitions: Not a number of type INT"),
    ("broker.id=99999999999", "Invalid value 99999999999 for configuration broker.id: Not a number of type INT"),
    ("offsets.topic.replication.factor=40000",
     "Invalid value 40000 for configuration offsets.topic.replication.factor: Not a number of type SHORT"),
    ("log.retention.ms=1e3", "Invalid value 1e3 for configuration log.retention.ms: Not a number of type LONG"),
    ("log.cleaner.min.cleanable.ratio=half",
     "Invalid value half for configuration log.cleaner.min.cleanable.ratio: Not a number of type DOUBLE"),
    ("auto.create.topics.enable=yes",
     "Invalid value yes for configuration auto.create.topics.enable: Expected value to be either true or false"),
    ("log.cleanup.policy=delete,archive",
     "Invalid value delete,archive for configuration log.cleanup.policy: String must be one of: compact, delete"),
    ("compression.type=brotli", "Invalid value brotli for configuration compression.type: String must be one of: "
                                "uncompressed, zstd, lz4, snappy, gzip, producer"),
    ("log.roll.hours=x", "Invalid value x for configuration log.roll.hours: Not a number of type INT"),
], ids=lambda v: v.partition("=")[0] if "=" in v and " " not in v else "")
def test_bad_config_value_is_named_as_kafka_names_it(tmp_path: Path, line: str, error: str) -> None:
    config = tmp_path / "server.properties"
    config.write_text(f"zookeeper.connect=127.0.0.1:1\nzookeeper.connection.timeout.ms=1000\n"
                      f"log.dirs={tmp_path / 'logs'}\n{line}\n")
    r = subprocess.run([JOSEFK, "broker", str(config)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert (r.returncode, r.stderr) == (1, f"josefk broker: {error}\n")


WITHOUT_KAFKA_PYTHON = "import sys; sys.modules['kafka'] = None; from josefk.main import main; "


@pytest.mark.integration
def test_the_broker_runs_without_kafka_python(tmp_path: Path) -> None:
    """kafka-python is the tools' client library (the extra josefk[tools]), not the broker's:
    with it unimportable, `josefk broker` still starts and serves."""
    from harness.net import free_port
    from josefk.testing import answers_api_versions

    port = free_port()
    (tmp_path / "server.properties").write_text("")
    code = (WITHOUT_KAFKA_PYTHON + f"sys.exit(main(['broker', 'server.properties', '--override', "
            f"'listeners=PLAINTEXT://127.0.0.1:{port}', '--override', 'log.dirs={tmp_path / 'logs'}']))")
    broker = subprocess.Popen([sys.executable, "-c", code], cwd=tmp_path, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
    try:
        while not answers_api_versions(port):
            assert broker.poll() is None, broker.communicate()[0]
    finally:
        broker.send_signal(signal.SIGTERM)
        output = broker.communicate(timeout=60)[0]
    assert broker.returncode == 0, output


def test_a_tool_without_kafka_python_names_the_extra_to_install() -> None:
    r = subprocess.run([sys.executable, "-c", WITHOUT_KAFKA_PYTHON + "sys.exit(main(['topics', '--list']))"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1, r.stderr
    assert r.stderr == ("josefk topics: needs kafka-python, a client library the broker does without: "
                        "pip install 'josefk[tools]'\n")
