"""A server as a child process: started, ready once its port accepts connections, and
stopped by its handle (SIGTERM, then SIGKILL after a bound)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

# A bound on a server's start, not a wait: a cold interpreter or JVM on a machine whose two
# cores are busy (load 25) needs well over the 30 s a quiet one never approaches. Kafka's
# own start in harness/kafka.py is allowed 90 s too.
START_TIMEOUT = 90.0


class ServerProcess:
    def __init__(self, cmd: Sequence[str], host: str, port: int, *, output: Path | None = None,
                 cwd: Path | None = None, env: Mapping[str, str] | None = None, start_timeout: float = START_TIMEOUT,
                 what: str = "server") -> None:
        """`output` collects stdout and stderr in a file (appended: a restart adds to it)
        instead of the caller's output."""
        self.host, self.port = host, port
        environment = {**os.environ, **(env or {})}
        if output is None:
            self.proc = subprocess.Popen(cmd, cwd=cwd, env=environment, stdin=subprocess.DEVNULL)
        else:
            with open(output, "ab") as out:
                self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=cwd, env=environment,
                                             stdin=subprocess.DEVNULL)
        try:
            self._wait_listening(start_timeout, what)
        except BaseException:  # not started, or a test's timeout or SIGTERM meanwhile: nothing outlives it
            self.kill()
            raise

    def _wait_listening(self, start_timeout: float, what: str) -> None:
        deadline = time.monotonic() + start_timeout
        while True:
            try:
                socket.create_connection((self.host, self.port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    code = self.proc.poll()
                    raise RuntimeError(f"{what} did not start" + (f" (exit code {code})" if code is not None else
                                                                   f" within {start_timeout:.0f} s")) from None
                time.sleep(0.05)

    @property
    def bootstrap(self) -> str:
        return f"{self.host}:{self.port}"

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self, timeout: float = 15) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode
