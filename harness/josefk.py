"""A josefk broker as a separate process, the way users run it: tests (kill -9, chaos),
the compat suite, fuzzers and benchmarks all start it here."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from harness.net import free_port
from harness.process import START_TIMEOUT, ServerProcess

ROOT = Path(__file__).resolve().parent.parent


class BrokerProcess(ServerProcess):
    def __init__(self, log_dir: Path | str, port: int | None = None, overrides: dict[str, str] | None = None,
                 output: Path | None = None, host: str = "127.0.0.1", prefix: tuple[str, ...] = (),
                 log_level: str = "WARNING", launcher: tuple[str, ...] = (sys.executable, "-m", "josefk"),
                 start_timeout: float = START_TIMEOUT, cwd: Path | None = None,
                 logs_dir: Path | None = None) -> None:
        """`log_dir` may be a comma-separated list (log.dirs); `output` collects the
        broker's log (stdout and stderr) in a file instead of the test's output; `prefix`
        wraps the command (e.g. `ip netns exec NS`, which execs: the pid stays the broker's);
        `launcher` is the josefk command (another build's, for a comparison); `logs_dir` is
        where server.log, controller.log, ... go ($LOG_DIR; by default a temporary folder
        removed when the broker stops or is killed)."""
        port = port or free_port()
        self.log_dir = log_dir
        cmd = [*prefix, *launcher, "broker", str(ROOT / "config/server.properties"),
               "--override", f"listeners=PLAINTEXT://{host}:{port}",
               "--override", f"log.dirs={log_dir}", "--log-level", log_level]
        for key, value in (overrides or {}).items():
            cmd += ["--override", f"{key}={value}"]
        self._own_logs_dir = logs_dir is None
        self.logs_dir = Path(tempfile.mkdtemp(prefix="josefk-server-logs-")) if logs_dir is None else logs_dir
        try:
            super().__init__(cmd, host, port, output=output, cwd=cwd, env={"LOG_DIR": str(self.logs_dir)},
                             start_timeout=start_timeout, what="broker process")
        except BaseException:
            self._remove_logs_dir()
            raise

    def kill(self) -> None:
        super().kill()
        self._remove_logs_dir()

    def stop(self, timeout: float = 15) -> int:
        code = super().stop(timeout)
        self._remove_logs_dir()
        return code

    def _remove_logs_dir(self) -> None:
        if self._own_logs_dir:
            shutil.rmtree(self.logs_dir, ignore_errors=True)
