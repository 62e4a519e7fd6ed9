"""A real ZooKeeper server (Debian's zookeeper package) on 127.0.0.1 for cluster tests."""

from __future__ import annotations

import glob
import shutil
import socket
import subprocess
import tempfile
import time

from harness.net import free_port
from harness.process import START_TIMEOUT

ZOOKEEPER_JARS = "/usr/share/java/zookeeper.jar"


class ZooKeeperServer:
    def __init__(self, tick_ms: int = 250, host: str = "127.0.0.1", port: int | None = None,
                 data_dir: str | None = None, prefix: tuple[str, ...] = ()) -> None:
        """Given the `port` and `data_dir` of a stopped server, this restarts it with its sessions and data."""
        if not glob.glob(ZOOKEEPER_JARS):
            raise RuntimeError("ZooKeeper is not installed: apt-get install zookeeper (.ci/run does this)")
        self.host = host
        self.port = port or free_port()
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="josefk-zk-")
        classpath = f"{ZOOKEEPER_JARS}:/usr/share/java/*"
        self.proc = subprocess.Popen(
            [*prefix, "java", "-Xmx256m", "-Dzookeeper.admin.enableServer=false", "-cp", classpath,
             "org.apache.zookeeper.server.ZooKeeperServerMain", str(self.port), self.data_dir, str(tick_ms)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with socket.create_connection((self.host, self.port), timeout=1) as s:
                    s.sendall(b"srvr")
                    # Listening is not serving: until its database is loaded the server answers
                    # "This ZooKeeper instance is not currently serving requests" and drops sessions.
                    if s.recv(100).startswith(b"Zookeeper version"):
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"ZooKeeper did not start within {START_TIMEOUT:.0f} s")
            time.sleep(0.2)

    @property
    def connect(self) -> str:
        return f"{self.host}:{self.port}"

    def stop(self, keep_data: bool = False) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if not keep_data:
            shutil.rmtree(self.data_dir, ignore_errors=True)
