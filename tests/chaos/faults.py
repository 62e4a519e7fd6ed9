"""The faults: each knows its target (chosen when it is made), how to inject it and how to heal it.

A fault is made while the cluster is whole (targets are read from ZooKeeper then), injected,
held for its `hold` seconds, then healed. `nodes` names what it touches, so two faults run
together only when they touch different nodes.
"""

from __future__ import annotations

import random
import signal
from dataclasses import dataclass
from typing import Protocol

from tests.chaos.cluster import REPLICA_LAG_TIME_MAX_MS, SESSION_TIMEOUT_MS, ChaosCluster, node
from tests.test_cluster import BROKER_IDS

LAG = REPLICA_LAG_TIME_MAX_MS / 1000
SESSION = SESSION_TIMEOUT_MS / 1000


class Fault(Protocol):
    kind: str
    hold: float

    @property
    def nodes(self) -> frozenset[str]: ...

    def inject(self, cluster: ChaosCluster) -> None: ...

    def heal(self, cluster: ChaosCluster) -> None: ...


@dataclass
class KillBroker:
    """kill -9, then a restart on the same log dir once the hold is over."""

    kind: str
    broker: int
    hold: float
    epoch: int | None  # its registration's, read while ZooKeeper is up (kazoo queues calls made while down)
    failed_starts: int = 0

    @property
    def nodes(self) -> frozenset[str]:
        return frozenset({node(self.broker)})

    def inject(self, cluster: ChaosCluster) -> None:
        cluster.brokers[self.broker].kill()

    def heal(self, cluster: ChaosCluster) -> None:
        self.failed_starts = cluster.restart(self.broker, self.epoch)


@dataclass
class PauseBroker:
    """SIGSTOP then SIGCONT: past replica.lag.time.max.ms it drops out of ISRs; past the
    ZooKeeper session timeout its session expires and it must come back with a new one."""

    kind: str
    broker: int
    hold: float

    @property
    def nodes(self) -> frozenset[str]:
        return frozenset({node(self.broker)})

    def inject(self, cluster: ChaosCluster) -> None:
        cluster.signal(self.broker, signal.SIGSTOP)

    def heal(self, cluster: ChaosCluster) -> None:
        cluster.signal(self.broker, signal.SIGCONT)


@dataclass
class StopZooKeeper:
    """ZooKeeper stopped, then restarted with the same data dir and port."""

    kind: str
    hold: float

    @property
    def nodes(self) -> frozenset[str]:
        return frozenset({"zk"})

    def inject(self, cluster: ChaosCluster) -> None:
        cluster.stop_zookeeper()

    def heal(self, cluster: ChaosCluster) -> None:
        cluster.start_zookeeper()


@dataclass
class Partition:
    """Every packet between `side` and each of `others` dropped, both ways; clients still reach all."""

    kind: str
    side: str
    others: tuple[str, ...]
    hold: float

    @property
    def nodes(self) -> frozenset[str]:
        return frozenset({self.side, *self.others})

    def inject(self, cluster: ChaosCluster) -> None:
        for other in self.others:
            cluster.network.cut(self.side, other)

    def heal(self, cluster: ChaosCluster) -> None:
        for other in self.others:
            cluster.network.mend(self.side, other)


KINDS = ("kill-leader", "kill-follower", "kill-controller", "pause-follower", "pause-leader",
         "session-expiry", "zookeeper-restart", "partition-brokers", "partition-broker-zookeeper",
         "isolate-leader")


def make_fault(kind: str, rng: random.Random, cluster: ChaosCluster, topic: str, partitions: int) -> Fault:
    """A fault of `kind` aimed at the cluster as ZooKeeper describes it now."""
    state = cluster.state(topic, rng.randrange(partitions))
    leader = state["leader"]
    follower = rng.choice([b for b in BROKER_IDS if b != leader])
    others = tuple(node(b) for b in BROKER_IDS if b != leader)
    match kind:
        case "kill-leader" | "kill-follower" | "kill-controller":
            victim = {"kill-leader": leader, "kill-follower": follower}.get(kind) or cluster.controller()
            return KillBroker(kind, victim, rng.uniform(1, 8), cluster.registration(victim))
        case "pause-follower":
            return PauseBroker(kind, follower, rng.uniform(LAG + 1, SESSION - 1.5))
        case "pause-leader":
            return PauseBroker(kind, leader, rng.uniform(LAG + 1, SESSION - 1.5))
        case "session-expiry":
            return PauseBroker(kind, rng.choice(BROKER_IDS), rng.uniform(SESSION + 2, SESSION + 6))
        case "zookeeper-restart":
            return StopZooKeeper(kind, rng.uniform(2, 10))
        case "partition-brokers":
            return Partition(kind, node(leader), (node(follower),), rng.uniform(LAG + 1, 12))
        case "partition-broker-zookeeper":
            return Partition(kind, node(rng.choice(BROKER_IDS)), ("zk",), rng.uniform(2, SESSION + 6))
        case "isolate-leader":
            return Partition(kind, node(leader), (*others, "zk"), rng.uniform(SESSION + 1, SESSION + 6))
    raise ValueError(f"unknown fault kind {kind!r}")
