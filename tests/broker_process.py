"""A josefk broker as a separate process, the way users run it (for kill -9 tests)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class BrokerProcess:
    """`output`, if given, receives the broker's stdout and stderr (its log), for tests that read it."""

    def __init__(self, log_dir: Path, port: int | None = None, overrides: dict[str, str] | None = None,
                 output: Path | None = None) -> None:
        self.port = port or free_port()
        self.log_dir = log_dir
        cmd = [sys.executable, "-m", "josefk", "broker", str(ROOT / "config/server.properties"),
               "--override", f"listeners=PLAINTEXT://127.0.0.1:{self.port}",
               "--override", f"log.dirs={log_dir}", "--log-level", "WARNING"]
        for key, value in (overrides or {}).items():
            cmd += ["--override", f"{key}={value}"]
        self._output = open(output, "ab") if output is not None else None
        self.proc = subprocess.Popen(cmd, stdout=self._output, stderr=subprocess.STDOUT if output else None)
        deadline = time.time() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.time() > deadline:
                    self.kill()
                    raise RuntimeError("broker process did not start") from None
                time.sleep(0.05)

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self._wait()

    def _wait(self, timeout: float | None = None) -> None:
        self.proc.wait(timeout)
        if self._output is not None:
            self._output.close()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self._wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode
