"""A josefk broker for other projects' tests: no Docker, no JVM.

    from josefk.testing import JosefkContainer

    with JosefkContainer() as kafka:
        producer = KafkaProducer(bootstrap_servers=kafka.get_bootstrap_server())

Shaped like testcontainers' KafkaContainer (start, stop, get_bootstrap_server, a context
manager), it runs `python -m josefk broker` in a subprocess on a free 127.0.0.1 port with a
temporary log dir, and returns once the broker answers ApiVersions. The pytest plugin
(josefk.testing.pytest_plugin) wraps it in the `josefk_broker` fixture.
"""

from __future__ import annotations

import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

# testcontainers' KafkaContainer settings for one broker: internal topics fit one broker,
# and a group's first join is answered at once.
SINGLE_BROKER = {
    "broker.id": "0",
    "offsets.topic.num.partitions": "1",
    "offsets.topic.replication.factor": "1",
    "transaction.state.log.replication.factor": "1",
    "transaction.state.log.min.isr": "1",
    "group.initial.rebalance.delay.ms": "0",
}


class JosefkContainer:
    """One josefk broker in a child process, stopped by its own handle."""

    def __init__(self, port: int = 0, start_timeout: float = 60.0, log_level: str = "WARN") -> None:
        """`port` 0 picks a free one; `start_timeout` bounds the wait for the first answer."""
        self.port = port
        self.start_timeout = start_timeout
        self.log_level = log_level
        self.config = dict(SINGLE_BROKER)
        self.process: subprocess.Popen[bytes] | None = None
        self.dir: Path | None = None

    def with_config(self, key: str, value: object) -> JosefkContainer:
        """A broker config (server.properties key) for the next start()."""
        self.config[key] = str(value)
        return self

    def get_bootstrap_server(self) -> str:
        if self.process is None:
            raise RuntimeError("the broker is not started: call start() or use `with`")
        return f"127.0.0.1:{self.port}"

    def start(self) -> JosefkContainer:
        if self.process is not None:
            return self
        self.dir = Path(tempfile.mkdtemp(prefix="josefk-testing-"))
        self.port = self.port or _free_port()
        overrides = {**self.config, "listeners": f"PLAINTEXT://127.0.0.1:{self.port}",
                     "log.dirs": str(self.dir / "kafka-logs")}
        config = self.dir / "server.properties"
        config.write_text("".join(f"{key}={value}\n" for key, value in overrides.items()))
        cmd = [sys.executable, "-m", "josefk", "broker", str(config), "--log-level", self.log_level]
        with open(self.dir / "broker.log", "wb") as out:
            self.process = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            self._wait_until_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_until_ready(self) -> None:
        assert self.process is not None and self.dir is not None
        deadline = time.monotonic() + self.start_timeout
        while not answers_api_versions(self.port):
            try:  # the pause between attempts doubles as the check that the broker still runs
                code = self.process.wait(timeout=0.1)
            except subprocess.TimeoutExpired:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"josefk broker did not answer on 127.0.0.1:{self.port} within "
                                       f"{self.start_timeout:g} s; its log:\n{self._log_tail()}") from None
                continue
            raise RuntimeError(f"josefk broker exited with status {code}; its log:\n{self._log_tail()}")

    def _log_tail(self) -> str:
        assert self.dir is not None
        try:
            return (self.dir / "broker.log").read_text(errors="replace")[-4000:]
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        """SIGTERM (the broker's clean shutdown), SIGKILL if it is not gone in 30 s; then the dir goes."""
        process, self.process = self.process, None
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def __enter__(self) -> JosefkContainer:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers_api_versions(port: int) -> bool:
    """An ApiVersions v0 request gets an answer with error code 0."""
    client_id = b"josefk.testing"
    body = struct.pack(">hhih", 18, 0, 1, len(client_id)) + client_id
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
            sock.sendall(struct.pack(">i", len(body)) + body)
            header = _read_exactly(sock, 10)  # size, correlation id, error code
    except OSError:
        return False
    _size, correlation_id, error_code = struct.unpack(">iih", header)
    return correlation_id == 1 and error_code == 0


def _read_exactly(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data
