"""Network namespaces for the chaos cluster: one per node, joined by a bridge in a hub namespace.

Each node (ZooKeeper, every broker) gets its own namespace with one veth into the hub's bridge
and a private 10.x address; the host (where the test and its clients run) gets one more veth
into the bridge, so clients reach every node while faults cut only the links between nodes.
Partitions are iptables DROP rules inside the nodes' namespaces. Names carry the pid, so
parallel runs do not collide; `close` deletes everything, and deleting a namespace takes its
veths (and their peers) with it.
"""

from __future__ import annotations

import os
import random
import subprocess


def _run(*cmd: str) -> None:
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _free_subnet() -> int:
    """A 10.N.0.0/24 that no interface of the host uses yet."""
    used = subprocess.run(["ip", "-o", "addr"], check=True, capture_output=True, text=True).stdout
    candidates = [n for n in range(64, 250) if f" 10.{n}.0." not in used]
    return random.Random(os.getpid()).choice(candidates)


class Network:
    def __init__(self, nodes: list[str]) -> None:
        tag = f"jk{os.getpid() % 100000}"
        self.hub = f"{tag}-hub"
        self.namespaces = {node: f"{tag}-{node}" for node in nodes}
        subnet = _free_subnet()
        self.addresses = {node: f"10.{subnet}.0.{i + 1}" for i, node in enumerate(nodes)}
        self.host_address = f"10.{subnet}.0.254"
        self._host_veth = f"{tag}-h"
        try:
            self._build(tag)
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
        _run("ip", "link", "add", self._host_veth, "type", "veth", "peer", "name", f"{tag}-hp", "netns", self.hub)
        self._in(self.hub, "ip", "link", "set", f"{tag}-hp", "master", "br0")
        self._in(self.hub, "ip", "link", "set", f"{tag}-hp", "up")
        _run("ip", "addr", "add", f"{self.host_address}/24", "dev", self._host_veth)
        _run("ip", "link", "set", self._host_veth, "up")

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

    def close(self) -> None:
        for namespace in [*self.namespaces.values(), self.hub]:
            subprocess.run(["ip", "netns", "del", namespace], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["ip", "link", "del", self._host_veth], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
