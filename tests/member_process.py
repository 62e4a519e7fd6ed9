"""A client test's group member in a process of its own (a JVM, the Go member): its stdout
lines are collected by a thread, and it is asked to quit on stdin, as the member programs
under compat/ expect."""

from __future__ import annotations

import subprocess
import threading
from typing import IO


class MemberProcess:
    def __init__(self, cmd: list[str], stderr: IO[str] | int = subprocess.DEVNULL) -> None:
        self.lines: list[str] = []
        self.process = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.strip())

    def quit(self) -> None:
        """Say "quit" and wait for it to exit (killed after 60 s), then for its last lines."""
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.write("quit\n")
            self.process.stdin.flush()
            self.process.stdin.close()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.reader.join(timeout=10)
