"""A josefk broker as a separate process, the way users run it: tests (kill -9, chaos),
the compat suite, fuzzers and benchmarks all start it here."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from harness.net import free_port

ROOT = Path(__file__).resolve().parent.parent


class BrokerProcess:
    def __init__(self, log_dir: Path | str, port: int | None = None, overrides: dict[str, str] | None = None,
                 output: Path | None = None, host: str = "127.0.0.1", prefix: tuple[str, ...] = (),
                 log_level: str = "WARNING", launcher: tuple[str, ...] = (sys.executable, "-m", "josefk"),
                 start_timeout: float = 30, cwd: Path | None = None) -> None:
        """`log_dir` may be a comma-separated list (log.dirs); `output` collects the
        broker's log (stdout and stderr) in a file instead of the test's output; `prefix`
        wraps the command (e.g. `ip netns exec NS`, which execs: the pid stays the broker's);
        `launcher` is the josefk command (another build's, for a comparison)."""
        self.host = host
        self.port = port or free_port()
        self.log_dir = log_dir
        cmd = [*prefix, *launcher, "broker", str(ROOT / "config/server.properties"),
               "--override", f"listeners=PLAINTEXT://{host}:{self.port}",
               "--override", f"log.dirs={log_dir}", "--log-level", log_level]
        for key, value in (overrides or {}).items():
            cmd += ["--override", f"{key}={value}"]
        if output is None:
            self.proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL)
        else:
            with open(output, "ab") as out:
                self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=cwd,
                                             stdin=subprocess.DEVNULL)
        deadline = time.time() + start_timeout
        while True:
            try:
                socket.create_connection((self.host, self.port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.time() > deadline:
                    self.kill()
                    raise RuntimeError("broker process did not start") from None
                time.sleep(0.05)

    @property
    def bootstrap(self) -> str:
        return f"{self.host}:{self.port}"

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode
