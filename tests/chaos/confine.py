"""Keeps a test network's traffic on the machine, and counts what tried to leave it.

A test network lives on a private 10.N.0.0/24 reached through one veth in the root namespace.
Once that veth is gone, the subnet would fall through to the default route and out of the
uplink: a client left running would keep sending SYNs into the real network. So, in the root
namespace, from before the first veth until after the last client has stopped:

- a sink route: the subnet through a veth whose peer stays down (metric 4242), where the kernel
  drops what it is given; the veth's connected route (metric 0) wins while the network is up;
- a blackhole route (metric 4243), in case the sink goes first;
- a chain in OUTPUT, named after the network, that lets the subnet's packets through the host
  veth only and drops every other one, counting them: into the sink (a client outlived the
  network) and anywhere else (they would have left the machine).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

SINK_METRIC = 4242
BLACKHOLE_METRIC = 4243


def _run(*cmd: str) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def _try(*cmd: str) -> None:
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@dataclass(frozen=True, slots=True)
class Leaks:
    """Packets to the subnet that did not go through the host veth."""

    sunk: int  # routed into the sink: sent after the network's veth was gone
    elsewhere: int  # routed to another interface: out of the machine, had the chain not dropped them

    @property
    def total(self) -> int:
        return self.sunk + self.elsewhere


class Confinement:
    def __init__(self, tag: str, subnet: str, host_veth: str) -> None:
        self.subnet, self.host_veth = subnet, host_veth
        self.chain = f"{tag}-confine"
        self.sink = f"{tag}-s"
        self._undo: list[tuple[str, ...]] = []  # how to take back each step done, in order: close() runs them back
        self.closed = False
        steps = [
            (("ip", "link", "add", self.sink, "type", "veth", "peer", "name", f"{tag}-sp"),
             ("ip", "link", "del", self.sink)),  # takes its peer and its route with it
            (("ip", "link", "set", self.sink, "up"), None),  # its peer stays down: the sink drops all it is given
            (("ip", "route", "add", subnet, "dev", self.sink, "metric", str(SINK_METRIC)), None),
            (("ip", "route", "add", "blackhole", subnet, "metric", str(BLACKHOLE_METRIC)),
             ("ip", "route", "del", "blackhole", subnet, "metric", str(BLACKHOLE_METRIC))),
            (("iptables", "-w", "-N", self.chain), ("iptables", "-w", "-X", self.chain)),
            (("iptables", "-w", "-A", self.chain, "-o", host_veth, "-j", "RETURN"),
             ("iptables", "-w", "-F", self.chain)),
            (("iptables", "-w", "-A", self.chain, "-o", self.sink, "-j", "DROP"), None),
            (("iptables", "-w", "-A", self.chain, "-j", "DROP"), None),
            (("iptables", "-w", "-I", "OUTPUT", "-d", subnet, "-j", self.chain),
             ("iptables", "-w", "-D", "OUTPUT", "-d", subnet, "-j", self.chain)),
        ]
        try:
            for do, undo in steps:
                _run(*do)
                if undo:
                    self._undo.append(undo)
        except BaseException:
            self.close()
            raise

    def route(self, address: str) -> str:
        """The device the root namespace sends `address`'s packets to ('' when none: blackholed)."""
        words = subprocess.run(["ip", "route", "get", address], capture_output=True, text=True).stdout.split()
        return words[words.index("dev") + 1] if "dev" in words else ""

    def leaks(self) -> Leaks:
        """What the chain has dropped so far (`iptables -L CHAIN -v -x -n`: packets, bytes, target, ..., out)."""
        rules = _run("iptables", "-w", "-L", self.chain, "-v", "-x", "-n").splitlines()[2:]
        dropped = {fields[6]: int(fields[0]) for fields in map(str.split, rules) if fields[2] == "DROP"}
        return Leaks(sunk=dropped.get(self.sink, 0), elsewhere=dropped.get("*", 0))

    def describe(self) -> str:
        return (f"the sink {self.sink}, the routes to {self.subnet} (metrics {SINK_METRIC}, {BLACKHOLE_METRIC})"
                f" and the iptables chain {self.chain}")

    def close(self) -> None:
        """Take back what __init__ did; call it only once nothing that talks to the subnet runs."""
        while self._undo:
            _try(*self._undo.pop())
        self.closed = True
