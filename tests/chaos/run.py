"""One chaos run: start the cluster and the load, inject faults, heal, then check everything."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kafka.admin import NewTopic

from tests.chaos import checks
from tests.chaos.cluster import ChaosCluster
from tests.chaos.faults import KINDS, Fault, KillBroker, StopZooKeeper, make_fault
from tests.chaos.load import GroupLoad, IsrSampler, ProducerLoad, RdKafkaProducerLoad, read_partitions
from tests.test_cluster import BROKER_IDS

TOPIC = "chaos"
MIN_ISR = 2
CONFINED = "every client stopped before the network went, no packet to it elsewhere"
FATAL = "idempotent producer fatal error"
CLIENTS = ("kafka-python", "librdkafka")
# The delivery errors that say a record timed out, by client.
TIMED_OUT = {"kafka-python": "KafkaTimeoutError", "librdkafka": "_MSG_TIMED_OUT"}


@dataclass
class Settings:
    faults: int
    seed: int
    partitions: int = 4
    clients: tuple[str, ...] = CLIENTS  # one idempotent acks=all producer per entry
    rate: float = 50.0  # records per second per producer
    together: float = 0.3  # chance that a step injects two faults at once
    kinds: tuple[str, ...] = KINDS
    full_isr_bound: float = 60.0
    stall_bound: float = 30.0
    log: Callable[[str], None] = print

    def __post_init__(self) -> None:
        if unknown := set(self.clients) - set(CLIENTS):  # before a cluster is started for nothing
            raise ValueError(f"unknown clients {sorted(unknown)}: each is one of {', '.join(CLIENTS)}")


@dataclass
class ClientTally:
    """What one client library's producers did."""

    producers: int = 0
    sent: int = 0
    acked: int = 0
    errors: Counter = field(default_factory=Counter)  # by delivery error: retried or expired, never acknowledged
    callbacks: Counter = field(default_factory=Counter)  # the error callback's messages (librdkafka's error_cb)

    def summary(self, client: str) -> list[str]:
        lines = [f"{client} ({self.producers} producers): sent {self.sent}, acknowledged {self.acked},"
                 f" timed out {self.errors[TIMED_OUT[client]]}, errors {dict(self.errors)}"]
        if self.callbacks:
            lines.append(f"  {sum(self.callbacks.values())} error callbacks, most frequent:")
            lines.extend(f"    {n} x {message}" for message, n in self.callbacks.most_common(10))
        return lines


@dataclass
class Report:
    seed: int
    faults: Counter = field(default_factory=Counter)
    steps: int = 0
    sent: int = 0
    acked: int = 0
    clients: dict[str, ClientTally] = field(default_factory=dict)
    fatal: int = 0
    consumed: int = 0
    commits: int = 0
    group_errors: Counter = field(default_factory=Counter)
    lost: int = 0
    duplicates: int = 0
    resent: list[str] = field(default_factory=list)
    records_read: int = 0
    full_isr_times: list[float] = field(default_factory=list)
    max_stall: tuple[float, int, float] = (0.0, -1, 0.0)
    isr_samples: int = 0
    refused_starts: int = 0
    under_min_isr: tuple[int, float] = (0, 0.0)  # ZooKeeper states with an ISR below MIN_ISR: count, seconds
    violations: dict[str, list[str]] = field(default_factory=dict)
    seconds: float = 0.0

    def summary(self) -> str:
        times = sorted(self.full_isr_times) or [0.0]
        lines = [
            f"seed {self.seed}: {sum(self.faults.values())} faults in {self.steps} steps, {self.seconds:.0f} s",
            "faults by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(self.faults.items())),
            f"records sent {self.sent}, acknowledged {self.acked}, lost {self.lost}, duplicated {self.duplicates},"
            f" read back {self.records_read}",
            f"re-sent by a producer under a bumped epoch (not a broker duplicate): {len(self.resent)}",
            *(f"  {line}" for line in self.resent[:10]),
            *(line for client, tally in self.clients.items() for line in tally.summary(client)),
            f"idempotent producer fatal errors: {self.fatal}",
            f"group: consumed {self.consumed}, commits {self.commits}, errors {dict(self.group_errors)}",
            f"time to full ISR after healing: p50 {statistics.median(times):.1f} s, max {times[-1]:.1f} s",
            f"longest producer stall with an ISR >= {MIN_ISR}: {self.max_stall[0]:.1f} s"
            f" (partition {self.max_stall[1]})",
            f"ISR samples from ZooKeeper: {self.isr_samples}; ISR below {MIN_ISR} seen {self.under_min_isr[0]}"
            f" times, {self.under_min_isr[1]:.1f} s in all",
            f"restarts refused while the old session held the broker id: {self.refused_starts}",
        ]
        for check, found in self.violations.items():
            lines.append(f"VIOLATION {check}: {len(found)}")
            lines.extend(f"  {v}" for v in found[:10])
        lines.append("all checks passed" if not self.violations else "CHECKS FAILED")
        return "\n".join(lines)


def _heal_order(fault: Fault) -> int:
    """ZooKeeper comes back first: a restarting broker registers there."""
    return 0 if isinstance(fault, StopZooKeeper) else 1


def _whole(cluster: ChaosCluster, partitions: int) -> bool:
    """A controller, every broker registered in ZooKeeper and in every ISR of the topic."""
    if not cluster.kazoo.exists("/controller") or len(cluster.kazoo.get_children("/brokers/ids")) < len(BROKER_IDS):
        return False
    return all(len(cluster.state(TOPIC, p)["isr"]) == len(BROKER_IDS) for p in range(partitions))


def _pick(rng: random.Random, cluster: ChaosCluster, settings: Settings) -> list[Fault]:
    first = make_fault(rng.choice(settings.kinds), rng, cluster, TOPIC, settings.partitions)
    picked = [first]
    if rng.random() < settings.together:
        second = make_fault(rng.choice(settings.kinds), rng, cluster, TOPIC, settings.partitions)
        if not second.nodes & first.nodes:
            picked.append(second)
    return picked


def _step(rng: random.Random, cluster: ChaosCluster, settings: Settings, report: Report) -> None:
    faults = _pick(rng, cluster, settings)
    hold = max(f.hold for f in faults)
    settings.log(f"[{time.strftime('%H:%M:%S')}] step {report.steps + 1}: "
                 + " + ".join(f"{f.kind} {sorted(f.nodes)}" for f in faults) + f" for {hold:.1f} s")
    injected: list[Fault] = []
    try:
        for fault in faults:
            fault.inject(cluster)
            injected.append(fault)
            report.faults[fault.kind] += 1
        time.sleep(hold)  # the fault's duration, not a synchronisation
    finally:
        for fault in sorted(injected, key=_heal_order):
            try:
                fault.heal(cluster)
            except AssertionError as e:  # a broker that never registers again: the checks still run
                report.violations.setdefault("brokers come back", []).append(f"step {report.steps + 1}: {e}")
            if isinstance(fault, KillBroker):
                report.refused_starts += fault.failed_starts
    report.steps += 1
    healed = time.time()
    for broker in BROKER_IDS:
        if not cluster.running(broker):
            report.violations.setdefault("brokers stay up", []).append(
                f"step {report.steps}: broker {broker} exited with {cluster.brokers[broker].proc.returncode}")
            cluster.start(broker)
    try:
        cluster.wait_for(lambda: _whole(cluster, settings.partitions), "full ISRs", settings.full_isr_bound)
        report.full_isr_times.append(time.time() - healed)
    except AssertionError:
        report.violations.setdefault("full ISR within bound", []).append(
            f"step {report.steps}: not every ISR full {settings.full_isr_bound:.0f} s after healing: "
            + str({p: cluster.state(TOPIC, p) for p in range(settings.partitions)}))
    time.sleep(rng.uniform(0, 3))  # the load runs on a whole cluster for a while


def run(settings: Settings, root: Path) -> Report:
    """Run the faults against a fresh cluster under `root`; the report lists every violation."""
    report = Report(settings.seed)
    rng = random.Random(settings.seed)
    began = time.time()
    cluster = ChaosCluster(root)
    try:
        cluster.create_topic(NewTopic(TOPIC, settings.partitions, 3, topic_configs={
            "min.insync.replicas": str(MIN_ISR), "unclean.leader.election.enable": "false"}))
        sampler = IsrSampler(cluster.zk.connect, TOPIC, settings.partitions)
        producers = [_producer(client, f"{client}-{i}", cluster.bootstrap, settings, root)
                     for i, client in enumerate(settings.clients)]
        group = GroupLoad(cluster.bootstrap, TOPIC, "chaos")
        loads = [sampler, *producers, group]
        for load in loads:
            load.start()
        try:
            load_began = time.time()
            while sum(report.faults.values()) < settings.faults:
                _step(rng, cluster, settings, report)
            load_ended = time.time()
        finally:
            for load in reversed(loads):
                load.stop()
        _check(cluster, settings, report, sampler, producers, group, (load_began, load_ended))
    finally:
        confinement = cluster.close()
        for problem in confinement:  # logged too: an exception on its way out drops the report
            settings.log(f"VIOLATION {CONFINED}: {problem}")
        if confinement:
            report.violations[CONFINED] = confinement
    report.seconds = time.time() - began
    return report


def _producer(client: str, name: str, bootstrap: str, settings: Settings, root: Path) -> ProducerLoad:
    if client == "librdkafka":  # its debug=eos log is kept with the brokers' logs
        return RdKafkaProducerLoad(bootstrap, TOPIC, settings.partitions, name, settings.rate, root / f"{name}.log")
    return ProducerLoad(bootstrap, TOPIC, settings.partitions, name, settings.rate)


def _check(cluster: ChaosCluster, settings: Settings, report: Report, sampler: IsrSampler,
           producers: list[ProducerLoad], group: GroupLoad, window: tuple[float, float]) -> None:
    acks = [a for p in producers for a in p.acks]
    report.sent = sum(p.sent for p in producers)
    report.acked = len(acks)
    for producer in producers:
        tally = report.clients.setdefault(producer.client, ClientTally())
        tally.producers += 1
        tally.sent += producer.sent
        tally.acked += len(producer.acks)
        tally.errors.update(producer.errors)
        tally.callbacks.update(producer.client_errors)
    fatal = [f for p in producers for f in p.fatal]
    report.fatal = len(fatal)
    report.consumed, report.commits = group.consumed, sum(not c.read_back for c in group.commits)
    report.group_errors.update(group.errors)
    report.isr_samples = len(sampler.samples)
    under = [v for vs in checks.timelines(sampler.samples).values() for v in vs if len(v.isr) < MIN_ISR]
    report.under_min_isr = (len(under), sum(v.span.end - v.span.start for v in under))
    found = report.violations

    high_watermarks, logs = read_partitions(cluster.bootstrap, TOPIC, settings.partitions)
    report.records_read = sum(len(r) for r in logs.values())
    lost = checks.lost_acks(acks, logs)
    report.lost = len(lost)
    dupes = checks.duplicates(logs, lambda p, offset: checks.batch_writer(
        cluster.root / f"broker-{BROKER_IDS[0]}" / f"{TOPIC}-{p}", offset))  # replicas are identical below the HW
    report.duplicates, report.resent = len(dupes.written_twice), dupes.resent
    report.max_stall = checks.longest_stall(acks, sampler.samples, *window, MIN_ISR)
    results = {
        "acknowledged records lost": lost,
        "records duplicated": dupes.written_twice,
        FATAL: fatal,
        "acks=all acknowledged with the ISR below min.insync.replicas":
            checks.acks_below_min_isr(acks, sampler.samples, MIN_ISR),
        "committed offsets went backwards": checks.offsets_went_back(group.commits),
        "replicas identical below the high watermark": _replicas(cluster, settings, high_watermarks),
    }
    if report.max_stall[0] > settings.stall_bound:
        results["producer stall within bound"] = [
            f"partition {report.max_stall[1]}: {report.max_stall[0]:.1f} s without an ack from"
            f" {report.max_stall[2]:.3f} though its ISR had {MIN_ISR} or more"]
    found.update({name: v for name, v in results.items() if v})


def _replicas(cluster: ChaosCluster, settings: Settings, high_watermarks: dict[int, int]) -> list[str]:
    """Followers may still be fetching the last batches: retry for a while before calling it a difference."""
    deadline = time.time() + 30
    while True:
        differences = [d for p in range(settings.partitions) for d in checks.replicas_differ(
            {b: cluster.root / f"broker-{b}" / f"{TOPIC}-{p}" for b in BROKER_IDS}, high_watermarks[p])]
        if not differences or time.time() > deadline:
            return differences
        time.sleep(0.5)
