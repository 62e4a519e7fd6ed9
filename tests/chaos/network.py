"""Network namespaces for the chaos cluster: one per node, joined by a bridge in a hub namespace.

Each node (ZooKeeper, every broker) gets its own namespace with one veth into the hub's bridge
and a private 10.x address; the host (where the test and its clients run) gets one more veth
into the bridge, so clients reach every node while faults cut only the links between nodes.
Partitions are iptables DROP rules inside the nodes' namespaces. Names carry the pid and a
count, so parallel runs and a network kept after a failure do not collide; `close` deletes
everything, and deleting a namespace takes its veths (and their peers) with it.

The network's Confinement (tests/chaos/confine.py) is made first and removed last: nothing sent
to the subnet leaves the machine, even from a client that outlives the network, and what would
have is counted. `close` removes the namespaces only once nothing that talks to them still runs.
"""

from __future__ import annotations

import gc
import itertools
import os
import random
import socket
import subprocess
import threading
import time
from pathlib import Path

from tests.chaos.confine import Confinement

# How long close() gives what still talks to the network to end before it keeps the network.
STOP_GRACE = 30.0
# The TCP states in which a socket sends on its own (retransmits, keepalives, FINs).
SENDING_STATES = ("established", "syn-sent", "syn-recv", "fin-wait-1", "close-wait", "last-ack", "closing")
_networks = itertools.count()  # a network kept after a failure must not share its names with the next


def _run(*cmd: str) -> None:
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _run_out(*cmd: str) -> str:
    """The command's output; empty when it fails (a namespace already gone)."""
    return subprocess.run(cmd, capture_output=True, text=True).stdout


def _free_subnet() -> int:
    """A 10.N.0.0/24 that no interface or route of the host uses yet (another run's confinement included)."""
    used = subprocess.run(["ip", "-o", "addr"], check=True, capture_output=True, text=True).stdout
    routes = subprocess.run(["ip", "route"], check=True, capture_output=True, text=True).stdout
    candidates = [n for n in range(64, 250) if f" 10.{n}.0." not in used and f"10.{n}.0.0/24" not in routes]
    return random.Random(os.getpid()).choice(candidates)


def _close_sockets(local_addresses: set[str]) -> None:
    """Close this process's sockets bound to one of `local_addresses` ('ip:port'), once every thread
    that could use them has ended. kafka-python leaves a socket whose connect timed out open,
    held by the traceback of the error it raised, and it goes on sending SYNs."""
    gc.collect()
    for obj in gc.get_objects():
        if isinstance(obj, socket.socket) and obj.family == socket.AF_INET and obj.fileno() >= 0:
            host, port = obj.getsockname()
            if f"{host}:{port}" in local_addresses:
                obj.close()


def _tasks() -> dict[int, str]:
    """This process's threads, Python's and native ones alike: {thread id: name}."""
    tasks = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            tasks[int(tid)] = Path(f"/proc/self/task/{tid}/comm").read_text().strip()
        except (FileNotFoundError, ProcessLookupError):  # ended while listed
            continue
    return tasks


def _native_threads(before: set[int]) -> list[str]:
    """Threads started since `before` that are not Python threads: librdkafka's, for one."""
    python = {t.native_id for t in threading.enumerate()}
    return [f"native thread {tid} ({name})" for tid, name in _tasks().items() if tid not in before | python]


class Network:
    def __init__(self, nodes: list[str]) -> None:
        tag = f"jk{os.getpid() % 100000}-{next(_networks)}"
        self.hub = f"{tag}-hub"
        self.namespaces = {node: f"{tag}-{node}" for node in nodes}
        subnet = _free_subnet()
        self.addresses = {node: f"10.{subnet}.0.{i + 1}" for i, node in enumerate(nodes)}
        self.host_address = f"10.{subnet}.0.254"
        self.subnet = f"10.{subnet}.0.0/24"
        self.host_veth = f"{tag}-h"
        self._threads_before = set(threading.enumerate())
        self._tasks_before = set(_tasks())
        self.confinement = Confinement(tag, self.subnet, self.host_veth)
        try:
            self._build(tag)
            first = next(iter(self.addresses.values()))
            if (device := self.confinement.route(first)) != self.host_veth:
                raise AssertionError(f"{first} routes to {device!r}, not the network's veth {self.host_veth}")
        except BaseException:
            self.close()
            raise

    def _build(self, tag: str) -> None:
        _run("ip", "netns", "add", self.hub)
        self._in(self.hub, "ip", "link", "add", "br0", "type", "bridge")
        self._in(self.hub, "ip", "link", "set", "br0", "up")
        for i, (node, namespace) in enumerate(self.namespaces.items()):
            _run("ip", "netns", "add", namespace)
            self._plug(f"{tag}-{i}", namespace)
            self._in(namespace, "ip", "addr", "add", f"{self.addresses[node]}/24", "dev", "eth0")
            self._in(namespace, "ip", "link", "set", "lo", "up")
            self._in(namespace, "ip", "link", "set", "eth0", "up")
        _run("ip", "link", "add", self.host_veth, "type", "veth", "peer", "name", f"{tag}-hp", "netns", self.hub)
        self._in(self.hub, "ip", "link", "set", f"{tag}-hp", "master", "br0")
        self._in(self.hub, "ip", "link", "set", f"{tag}-hp", "up")
        _run("ip", "addr", "add", f"{self.host_address}/24", "dev", self.host_veth)
        _run("ip", "link", "set", self.host_veth, "up")

    def _plug(self, hub_end: str, namespace: str) -> None:
        _run("ip", "link", "add", hub_end, "type", "veth", "peer", "name", "eth0", "netns", namespace)
        _run("ip", "link", "set", hub_end, "netns", self.hub)
        self._in(self.hub, "ip", "link", "set", hub_end, "master", "br0")
        self._in(self.hub, "ip", "link", "set", hub_end, "up")

    @staticmethod
    def _in(namespace: str, *cmd: str) -> None:
        _run("ip", "netns", "exec", namespace, *cmd)

    def prefix(self, node: str) -> tuple[str, ...]:
        """The command prefix that runs a process inside `node`'s namespace."""
        return ("ip", "netns", "exec", self.namespaces[node])

    def cut(self, a: str, b: str) -> None:
        """Drop every packet between nodes a and b, both ways (rules on both sides)."""
        self._rules("-A", a, b)

    def mend(self, a: str, b: str) -> None:
        """Undo `cut(a, b)`."""
        self._rules("-D", a, b)

    def _rules(self, action: str, a: str, b: str) -> None:
        for here, there in ((a, b), (b, a)):
            for chain, flag in (("INPUT", "-s"), ("OUTPUT", "-d")):
                self._in(self.namespaces[here], "iptables", action, chain, flag, self.addresses[there], "-j", "DROP")

    def close(self, grace: float = STOP_GRACE) -> list[str]:
        """Delete the namespaces and veths, then the confinement; returns what went wrong (empty: nothing).

        What still talks to the network (threads started since it was built, Python or native,
        processes in its namespaces, sockets to its subnet still sending) gets `grace` seconds to
        end. If something does not, the namespaces and the confinement stay, so its traffic keeps
        landing in them, and the problems name it. Packets the confinement counted are problems too."""
        running = self._still_running(time.monotonic() + grace)
        problems = []
        if running:
            kept = f"the namespaces {' '.join(self._all_namespaces())} and {self.confinement.describe()}"
            problems.append(f"still running when the test network was to be removed: {'; '.join(running)}."
                            f" Kept {kept} (remove them by hand once it has stopped)")
        else:
            for namespace in self._all_namespaces():
                subprocess.run(["ip", "netns", "del", namespace], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            subprocess.run(["ip", "link", "del", self.host_veth], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not self.confinement.closed:
            leaks = self.confinement.leaks()
            if leaks.total:
                problems.append(f"{leaks.total} packets to {self.subnet} did not go through the network's veth:"
                                f" {leaks.sunk} after it was gone (dropped in the sink), {leaks.elsewhere} towards"
                                " another interface (dropped on their way out of the machine)")
            if not running:
                self.confinement.close()
        return problems

    def _all_namespaces(self) -> list[str]:
        return [*self.namespaces.values(), self.hub]

    def _still_running(self, deadline: float) -> list[str]:
        """What still talks to the network, after waiting for it to end until `deadline`."""
        while True:
            threads = [t for t in threading.enumerate()
                       if t not in self._threads_before and t is not threading.current_thread()]
            for thread in threads:
                thread.join(max(0.0, deadline - time.monotonic()))
            running = [f"thread {t.name}" for t in threads if t.is_alive()] + _native_threads(self._tasks_before)
            running += [f"process {pid} in namespace {namespace}" for namespace in self._all_namespaces()
                        for pid in _run_out("ip", "netns", "pids", namespace).split()]
            if (sockets := self._sockets()) and not running:
                _close_sockets({line.split()[3] for line in sockets})
                sockets = self._sockets()
            running += [f"socket {' '.join(line.split())}" for line in sockets]
            if not running or time.monotonic() >= deadline:
                return running
            time.sleep(0.1)

    def _sockets(self) -> list[str]:
        states = [word for state in SENDING_STATES for word in ("state", state)]
        return _run_out("ss", "-Htn", *states, "dst", self.subnet).splitlines()
