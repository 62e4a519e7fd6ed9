"""Consumer-group scenarios, driven from run.py through member processes of each client.

Every member is one process of a client harness started with `--member GROUP --topic T` (see
clients/common.py MemberIO; Harness.java does the same): it subscribes, prints its assignment
whenever it changes and every record it reads, commits offsets and closes when told on stdin.
Members can therefore be killed or SIGSTOPped independently (group-expel), and members of
different clients can share a group (group-mixed). Topics are created and records produced with
the raw wire client (wire.py), and the group's state is checked with DescribeGroups, so a
scenario's verdict depends only on the client under test and the broker.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import wire

COMPAT = Path(__file__).resolve().parent
SESSION_MS = 6000  # members' session.timeout.ms: the broker's group.min.session.timeout.ms default
RECORDS_PER_PARTITION = 4
SHARE_RECORDS, SHARE_BATCH = 60, 6  # share-split: records, per produce request (several batches to share)
REDELIVER_RECORDS = 9  # share-redeliver: one batch, three of each acknowledgement (common.share_action)
# share-redeliver's share.record.lock.duration.ms: long, so that a dead member's records coming back within
# HELD_WAIT_S shows the broker released them when its connection closed (Kafka 4.4 does), not at the locks' end.
SHARE_LOCK_MS, HELD_WAIT_S = 45_000, 20
RELEASED_WAIT_S = 10  # how long the released records get to reach the other member while the holder lives
SHARE_ARGS = ("--group-protocol", "share")

DESCRIPTIONS = [
    "group-split: the seed documents' experiment: a 3-partition topic; group A's one member and group B's "
    f"three members (each its own process) subscribe; once settled, {RECORDS_PER_PARTITION} keyed records go "
    "to each partition; A's member must read all of them, B's members own one partition each and together "
    "read every record exactly once.",
    "group-walk: members join one at a time up to four (the fourth gets nothing with 3 partitions), then "
    "leave (close, LeaveGroup) oldest first; after each step every partition is owned by exactly one live member "
    "and DescribeGroups shows Stable with that many members; Empty at the end.",
    "group-commit-resume: on a broker of its own, a member reads 10 records and commits offset 7; it closes, "
    "the broker is restarted (offsets reloaded from `__consumer_offsets`), and a new member of the group must "
    "read exactly offsets 7, 8, 9 (auto.offset.reset=earliest would give 0..9).",
    f"group-expel: two members (session.timeout.ms={SESSION_MS}); one is SIGSTOPped (no LeaveGroup, no "
    "heartbeats, connection kept open); after the session timeout the broker expels it and the other member "
    "owns all 3 partitions.",
    "group-mixed: this client and another one (pairs below) in one group with the range assignor "
    "on a 4-partition topic: 2 + 2 partitions, each member reads exactly its partitions' records.",
    "consumer-protocol-walk / consumer-protocol-resume: group-walk and group-commit-resume with "
    "group.protocol=consumer (KIP-848: ConsumerGroupHeartbeat, the broker's assignor), the group's state "
    "read with ConsumerGroupDescribe; for the clients that have the protocol (java-4, confluent-kafka) on the "
    "brokers that have it (josefk, Kafka 4.4).",
    f"share-split: two share consumers (KIP-932, Kafka's default implicit acknowledgement) of one share group "
    f"subscribe to a one-partition topic; once ShareGroupDescribe shows the group Stable with both members "
    f"assigned the partition, {SHARE_RECORDS} records are produced in {SHARE_RECORDS // SHARE_BATCH} requests: "
    "together the two must receive every record exactly once, each at delivery count 1; a sentinel record "
    "then produced must come alone (nothing again); after both close, DescribeShareGroupOffsets must show the "
    f"share-partition start offset at {SHARE_RECORDS} or past it (every record accepted) and ShareGroupDescribe "
    "the group Empty.",
    f"share-redeliver: {REDELIVER_RECORDS} records; a share consumer in explicit acknowledgement mode RELEASEs the "
    "records at offsets 0, 3, 6, REJECTs 1, 4, 7 and leaves 2, 5, 8 unacknowledged (held), commits, and polls no "
    "more; a second member (implicit acknowledgement) must then get the released records (delivery count 2); "
    "the first is SIGKILLed, and the second must get the held records at delivery count 2 within "
    f"{HELD_WAIT_S} s, well before their acquisition locks end (the group's share.record.lock.duration.ms="
    f"{SHARE_LOCK_MS}: the broker releases a closed connection's share session at once, as Kafka 4.4); the "
    "released ones may come with them when the first member's client had fetched them again; the rejected "
    "records must never "
    f"come again (a sentinel record then produced comes alone), and the start offset must reach "
    f"{REDELIVER_RECORDS}. Both share-* scenarios set the group's "
    "share.auto.offset.reset=earliest (IncrementalAlterConfigs); for the clients with a share consumer (java-4, "
    "confluent-kafka) on the brokers that have share groups (josefk, Kafka 4.4).",
]
# Member arguments and the group-state check of each group protocol.
PROTOCOLS: dict[str, tuple[tuple[str, ...], Callable[[str, str], tuple[int, str, int]]]] = {
    "classic": ((), wire.describe_group),
    "consumer": (("--group-protocol", "consumer"), wire.describe_consumer_group),
}


@dataclass(frozen=True)
class Shared:
    """One record as a share member reported it (common.MemberIO.share)."""

    partition: int
    offset: int
    key: str
    delivery: int
    action: str  # accept, release, reject or hold


class Failed(Exception):
    """A group scenario check failed."""


class NotApplicable(Exception):
    """The client (or its configuration) cannot run this group scenario."""


@dataclass
class MemberSpec:
    """How to start a member process of one client (a column of the report)."""

    name: str
    cmd: list[str]                                   # harness command + common args, without --bootstrap
    na: dict[str, str] = field(default_factory=dict)  # scenario -> why it is n/a
    extra: dict[str, list[str]] = field(default_factory=dict)  # scenario -> extra member args


class RestartableBroker(Protocol):
    @property
    def bootstrap(self) -> str: ...

    def start(self) -> None: ...
    def restart(self) -> None: ...
    def stop(self) -> None: ...


@dataclass
class Env:
    """Where a scenario runs."""

    bootstrap: str
    prefix: str
    log: Path                          # members' stderr (appended)
    deadline: float                    # monotonic time the scenario must finish by
    new_broker: Callable[[], RestartableBroker] | None = None  # for group-commit-resume


class Member:
    """One member process and what it reported."""

    def __init__(self, spec: MemberSpec, env: Env, group: str, topic: str, *args: str,
                 bootstrap: str | None = None) -> None:
        self.name = f"{spec.name}#{group}"
        cmd = [*spec.cmd, "--bootstrap", bootstrap or env.bootstrap, "--member", group, "--topic", topic,
               "--session-ms", str(SESSION_MS), *args]
        with open(env.log, "a") as err:
            err.write(f"--- {' '.join(cmd)}\n")
            err.flush()
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True,
                                         cwd=COMPAT, start_new_session=True)
        self.owned: set[int] = set()
        self.reported = False  # has reported an assignment at least once
        self.records: list[tuple[int, int, str]] = []
        self.shared: list[Shared] = []  # a share member's records
        self.committed: dict | None = None
        self.error = ""
        self.closed = False
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout
        for line in self.proc.stdout:
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            with self.lock:
                if "assigned" in obj:
                    self.owned, self.reported = set(obj["assigned"]), True
                elif "rec" in obj:
                    self.records.append(tuple(obj["rec"]))
                elif "share" in obj:
                    self.shared.append(Shared(*obj["share"]))
                elif "committed" in obj:
                    self.committed = obj["committed"]
                elif "error" in obj:
                    self.error = obj["error"]
                elif "closed" in obj:
                    self.closed = True

    def check(self) -> None:
        """Raise Failed if the member reported an error or died."""
        exited = self.proc.poll() is not None
        if exited:
            self.reader.join(5)  # its last lines ("closed", "error") may still be in the pipe
        if self.error:
            raise Failed(f"member {self.name} failed:\n{self.error}")
        if exited and not self.closed:
            raise Failed(f"member {self.name} exited with {self.proc.returncode} (stderr in the client's group log)")

    def send(self, **cmd: object) -> None:
        assert self.proc.stdin
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()

    def close(self, timeout: float = 15) -> None:
        """Graceful close (LeaveGroup); Failed if it does not finish in time."""
        if self.proc.poll() is None:
            try:
                self.send(close=True)
                self.proc.wait(timeout)
            except (OSError, subprocess.TimeoutExpired):
                self.kill()
                raise Failed(f"member {self.name} did not close within {timeout:.0f}s") from None
        self.check()

    def signal(self, sig: int) -> None:
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.signal(signal.SIGKILL)
            self.proc.wait(10)


def until(env: Env, members: list[Member], pred: Callable[[], object], what: str, timeout: float = 30) -> object:
    """Poll pred (checking the members are healthy) until truthy; Failed with the members' state on timeout."""
    end = min(time.monotonic() + timeout, env.deadline)
    while time.monotonic() < end:
        for m in members:
            m.check()
        res = pred()
        if res:
            return res
        time.sleep(0.2)
    state = "; ".join(f"{m.name}: owns {sorted(m.owned)}, {len(m.records)} records" for m in members)
    raise Failed(f"timed out waiting for {what} ({state})")


def shape(partitions: int, members: int) -> list[int]:
    """Sorted partition counts per member when `partitions` are spread over `members`."""
    return sorted(partitions // members + (i < partitions % members) for i in range(members))


def settled(env: Env, group: str, live: list[Member], partitions: int, bootstrap: str | None = None,
            protocol: str = "classic") -> bool:
    """Every partition owned by exactly one live member, evenly, the group Stable (DescribeGroups, or
    ConsumerGroupDescribe for a consumer-protocol group), and still so 0.5 s later."""
    def snap() -> list[set[int]]:
        return [set(m.owned) for m in live]
    now = snap()
    flat = sorted(p for s in now for p in s)
    if flat != list(range(partitions)) or sorted(map(len, now)) != shape(partitions, len(live)):
        return False
    if not all(m.reported for m in live):
        return False
    err, state, n = PROTOCOLS[protocol][1](bootstrap or env.bootstrap, group)
    if (err, state, n) != (0, "Stable", len(live)):
        return False
    time.sleep(0.5)
    return snap() == now


def fill(bootstrap: str, topic: str, partitions: int, per: int = RECORDS_PER_PARTITION) -> set[tuple[int, int, str]]:
    """Produce `per` keyed records to each partition; return the (partition, offset, key) set expected."""
    out = set()
    for p in range(partitions):
        keys = [f"{topic}-p{p}-k{i}" for i in range(per)]
        base = wire.produce(bootstrap, topic, p, [(k.encode(), f"v-{k}".encode()) for k in keys])
        out |= {(p, base + i, k) for i, k in enumerate(keys)}
    return out


def read_exactly(env: Env, m: Member, want: set[tuple[int, int, str]], others: list[Member]) -> None:
    """Wait until m has read `want`, then check it read nothing else and nothing twice."""
    until(env, others, lambda: len(m.records) >= len(want), f"{m.name} to read {len(want)} records")
    time.sleep(0.5)
    got = list(m.records)
    if len(got) != len(set(got)) or set(got) != want:
        raise Failed(f"{m.name} read {sorted(got)}, expected exactly {sorted(want)}")


def run_members(fn: Callable[[list[Member]], str]) -> str:
    """Run fn with a list it appends members to; kill whatever is left afterwards."""
    members: list[Member] = []
    try:
        return fn(members)
    finally:
        for m in members:
            m.kill()


# ---------------------------------------------------------------- scenarios


def group_split(spec: MemberSpec, env: Env) -> str:
    topic = f"{env.prefix}-group-split"
    wire.create_topic(env.bootstrap, topic, 3)

    def body(ms: list[Member]) -> str:
        a = Member(spec, env, f"{env.prefix}-split-A", topic)
        ms.append(a)
        bs = [Member(spec, env, f"{env.prefix}-split-B", topic) for _ in range(3)]
        ms += bs
        until(env, ms, lambda: settled(env, f"{env.prefix}-split-A", [a], 3), "group A: one member owning 0, 1, 2")
        until(env, ms, lambda: settled(env, f"{env.prefix}-split-B", bs, 3), "group B: one partition per member")
        want = fill(env.bootstrap, topic, 3)
        read_exactly(env, a, want, ms)
        for b in bs:
            read_exactly(env, b, {r for r in want if r[0] in b.owned}, ms)
        split = ", ".join(f"{sorted(b.owned)}: {len(b.records)}" for b in bs)
        for m in ms:
            m.close()
        return f"A read all {len(want)} records; B split them one partition each (partitions: records {split})"
    return run_members(body)


def group_walk(spec: MemberSpec, env: Env, protocol: str = "classic") -> str:
    suffix = "" if protocol == "classic" else f"-{protocol}"
    topic, group = f"{env.prefix}-group-walk{suffix}", f"{env.prefix}-walk{suffix}"
    args, describe = PROTOCOLS[protocol]
    wire.create_topic(env.bootstrap, topic, 3)

    def body(live: list[Member]) -> str:
        steps = []

        def stable() -> bool:
            return settled(env, group, live, 3, protocol=protocol)
        for _ in range(4):
            live.append(Member(spec, env, group, topic, *args))
            t0 = time.monotonic()
            until(env, live, stable, f"the group to settle with {len(live)} members")
            steps.append(f"+{len(live)}:{time.monotonic() - t0:.1f}s")
        while live:
            leaving = live.pop(0)
            t0 = time.monotonic()
            leaving.close()
            if live:
                until(env, live, stable, f"the group to settle with {len(live)} members")
            else:
                until(env, [], lambda: describe(env.bootstrap, group)[1:] == ("Empty", 0), "an Empty group")
            steps.append(f"-{len(live)}:{time.monotonic() - t0:.1f}s")
        return "settled after each step (members:seconds) " + " ".join(steps)
    return run_members(body)


def timed_out_of_deadline(env: Env, action: Callable[[], None]) -> None:
    """Run a broker start or restart and move env's deadline by its duration: start-up is bounded on its own
    (Kafka's JVM takes 5-40 s on a loaded machine), the deadline is the group's."""
    t0 = time.monotonic()
    action()
    env.deadline += time.monotonic() - t0


def group_commit_resume(spec: MemberSpec, env: Env, protocol: str = "classic") -> str:
    broker = env.new_broker() if env.new_broker else None
    bootstrap = broker.bootstrap if broker else env.bootstrap
    suffix = "" if protocol == "classic" else f"-{protocol}"
    topic, group = f"{env.prefix}-group-resume{suffix}", f"{env.prefix}-resume{suffix}"
    args = [*spec.extra.get("group-commit-resume", []), *PROTOCOLS[protocol][0]]
    try:
        if broker:
            timed_out_of_deadline(env, broker.start)
        wire.create_topic(bootstrap, topic, 1)
        want = sorted(fill(bootstrap, topic, 1, per=10))

        def first(ms: list[Member]) -> str:
            m = Member(spec, env, group, topic, *args, bootstrap=bootstrap)
            ms.append(m)
            read_exactly(env, m, set(want), ms)
            m.send(commit={"0": 7})
            until(env, ms, lambda: m.committed is not None, "the commit to complete")
            m.close()
            return ""
        run_members(first)
        if broker:
            timed_out_of_deadline(env, broker.restart)

        def second(ms: list[Member]) -> str:
            m = Member(spec, env, group, topic, *args, bootstrap=bootstrap)
            ms.append(m)
            read_exactly(env, m, set(want[7:]), ms)
            m.close()
            return ""
        run_members(second)
    finally:
        if broker:
            broker.stop()
    how = "broker restarted" if broker else "same broker (no restart)"
    mode = " (assign(), offsets only: no group membership)" if "--assign-all" in args else ""
    return f"read 0..9, committed 7, closed; {how}; new member read exactly offsets 7, 8, 9{mode}"


def group_expel(spec: MemberSpec, env: Env) -> str:
    topic, group = f"{env.prefix}-group-expel", f"{env.prefix}-expel"
    wire.create_topic(env.bootstrap, topic, 3)

    def body(ms: list[Member]) -> str:
        victim = Member(spec, env, group, topic)
        ms.append(victim)
        until(env, ms, lambda: settled(env, group, [victim], 3), "the first member to own all partitions")
        survivor = Member(spec, env, group, topic)
        ms.append(survivor)
        until(env, ms, lambda: settled(env, group, ms, 3), "two members to share the partitions")
        held = sorted(victim.owned)
        victim.signal(signal.SIGSTOP)
        t0 = time.monotonic()
        until(env, [survivor], lambda: settled(env, group, [survivor], 3),
              "the survivor to own all partitions after the expulsion", timeout=SESSION_MS / 1000 + 20)
        took = time.monotonic() - t0
        if took < SESSION_MS / 1000 - 1.5:
            raise Failed(f"partitions moved {took:.1f}s after the member stopped, before session.timeout.ms")
        victim.kill()
        survivor.close()
        return f"stopped member held {held}; expelled and partitions moved after {took:.1f}s"
    return run_members(body)


def group_mixed(a: MemberSpec, b: MemberSpec, env: Env) -> str:
    topic, group = f"{env.prefix}-group-mixed", f"{env.prefix}-mixed"
    wire.create_topic(env.bootstrap, topic, 4)

    def body(ms: list[Member]) -> str:
        ms += [Member(s, env, group, topic, "--assignor", "range") for s in (a, b)]
        until(env, ms, lambda: settled(env, group, ms, 4), "range to split 4 partitions 2 + 2")
        want = fill(env.bootstrap, topic, 4)
        for m in ms:
            read_exactly(env, m, {r for r in want if r[0] in m.owned}, ms)
        owned = ", ".join(f"{s.name} {sorted(m.owned)}" for s, m in zip((a, b), ms, strict=True))
        for m in ms:
            m.close()
        return f"with {b.name}: {owned}, each read exactly its records"
    return run_members(body)


def share_group_ready(bootstrap: str, group: str, topic: str, members: int) -> bool:
    """ShareGroupDescribe: the group Stable with `members` members, each assigned partition 0 of `topic`."""
    err, state, assigned = wire.describe_share_group(bootstrap, group)
    return (err, state, len(assigned)) == (0, "Stable", members) and all(
        a == [(topic, 0)] for a in assigned.values())


def share_done(env: Env, group: str, topic: str, end: int, live: list[Member], empty: bool = True) -> int:
    """Every record below `end` is acknowledged: a sentinel record produced at `end` reaches a live member,
    and nothing else comes with it; the members close, and DescribeShareGroupOffsets must show the start
    offset at `end` or past it (Kafka 4.4 persists the start offset as it was before the acknowledgement it
    writes, so only the sentinel's acknowledgement makes `end` visible there). With `empty`, the group must
    then be Empty (a killed member stays in it until share.session.timeout.ms, 45 s at least, runs out).
    Returns the start offset seen."""
    before = [len(m.shared) for m in live]
    wire.produce(env.bootstrap, topic, 0, [(f"{topic}-k{end}".encode(), b"sentinel")])
    until(env, live, lambda: any(r.offset == end for m in live for r in m.shared), f"the sentinel at offset {end}")
    time.sleep(0.5)  # a record delivered again would show by now
    extra = [r for m, n in zip(live, before, strict=True) for r in m.shared[n:] if r.offset != end]
    new = [r for m in live for r in m.shared if r.offset == end]
    if extra or len(new) != 1 or new[0].delivery != 1:
        raise Failed(f"with the sentinel at offset {end}, the members got {new + extra}, expected it alone, once")
    for m in live:
        m.close()
    last: list[tuple[int, int]] = []

    def acknowledged() -> bool:
        last[:] = [wire.share_start_offset(env.bootstrap, group, topic)]
        return last[0][0] == 0 and last[0][1] >= end
    try:
        until(env, [], acknowledged, f"DescribeShareGroupOffsets: start offset {end} or past it")
    except Failed as e:
        raise Failed(f"{e}; last (error code, start offset): {last}") from None
    if empty:
        until(env, [], lambda: wire.describe_share_group(env.bootstrap, group)[:2] == (0, "Empty"),
              "ShareGroupDescribe: an Empty group")
    return last[0][1]


def share_check(got: list[Shared], topic: str, what: str) -> None:
    """Each record's key is the one produced at its offset."""
    wrong = [r for r in got if r.key != f"{topic}-k{r.offset}"]
    if wrong:
        raise Failed(f"{what}: records with the wrong key for their offset: {wrong[:5]}")


def share_split(spec: MemberSpec, env: Env) -> str:
    topic = group = f"{env.prefix}-share-split"
    wire.create_topic(env.bootstrap, topic, 1)
    wire.set_group_configs(env.bootstrap, group, {"share.auto.offset.reset": "earliest"})

    def body(ms: list[Member]) -> str:
        ms += [Member(spec, env, group, topic, *SHARE_ARGS) for _ in range(2)]
        until(env, ms, lambda: share_group_ready(env.bootstrap, group, topic, 2),
              "ShareGroupDescribe: Stable, both members assigned partition 0")
        for start in range(0, SHARE_RECORDS, SHARE_BATCH):
            wire.produce(env.bootstrap, topic, 0, [(f"{topic}-k{i}".encode(), b"v")
                                                  for i in range(start, start + SHARE_BATCH)])
        until(env, ms, lambda: len({r.offset for m in ms for r in m.shared}) == SHARE_RECORDS,
              f"the members to receive all {SHARE_RECORDS} records")
        time.sleep(0.5)  # a duplicate delivery would show by now
        got = [r for m in ms for r in m.shared]
        share_check(got, topic, "share-split")
        if sorted(r.offset for r in got) != list(range(SHARE_RECORDS)):
            raise Failed(f"offsets received {sorted(r.offset for r in got)}, expected 0..{SHARE_RECORDS - 1} once each")
        again = [r for r in got if r.delivery != 1]
        if again:
            raise Failed(f"records delivered more than once: {again[:5]}")
        split = " + ".join(str(len(m.shared)) for m in ms)
        start = share_done(env, group, topic, SHARE_RECORDS, ms)
        return (f"ShareGroupDescribe Stable with both on partition 0; they received {split} of {SHARE_RECORDS} "
                f"records, each once at delivery count 1, then a sentinel alone; after close, start offset {start}, "
                "group Empty")
    return run_members(body)


def share_redeliver(spec: MemberSpec, env: Env) -> str:
    topic = group = f"{env.prefix}-share-redeliver"
    wire.create_topic(env.bootstrap, topic, 1)
    wire.set_group_configs(env.bootstrap, group, {"share.auto.offset.reset": "earliest",
                                                  "share.record.lock.duration.ms": str(SHARE_LOCK_MS)})
    wire.produce(env.bootstrap, topic, 0, [(f"{topic}-k{i}".encode(), b"v") for i in range(REDELIVER_RECORDS)])

    def body(ms: list[Member]) -> str:
        first = Member(spec, env, group, topic, *SHARE_ARGS, "--share-ack", "release-reject-hold")
        ms.append(first)
        until(env, ms, lambda: first.committed is not None,
              "the first member to release, reject and hold its first records")
        share_check(first.shared, topic, "first member")
        acted: dict[str, set[int]] = {}
        for r in first.shared:
            acted.setdefault(r.action, set()).add(r.offset)
        if set(acted) != {"release", "reject", "hold"} or any(r.delivery != 1 for r in first.shared):
            raise Failed(f"the first member's first poll should hold all three kinds at delivery count 1: "
                         f"{first.shared}")
        second = Member(spec, env, group, topic, *SHARE_ARGS)
        ms.append(second)

        def counts() -> dict[int, list[int]]:
            out: dict[int, list[int]] = {}
            for r in list(second.shared):
                out.setdefault(r.offset, []).append(r.delivery)
            return out
        until(env, ms, lambda: share_group_ready(env.bootstrap, group, topic, 2),
              "ShareGroupDescribe: Stable, both members assigned partition 0")
        # The holder's client may fetch the released records again in the background (KafkaShareConsumer
        # sometimes does): then they stay with it until it dies, and come with the held ones.
        until_released = time.monotonic() + RELEASED_WAIT_S
        while not acted["release"] <= counts().keys() and time.monotonic() < until_released:
            for m in ms:
                m.check()
            time.sleep(0.2)
        released_alive = acted["release"] <= counts().keys()
        first.kill()
        t0 = time.monotonic()
        rest = set(range(REDELIVER_RECORDS)) - acted["reject"]
        until(env, [second], lambda: rest <= counts().keys(),
              f"the SIGKILLed holder's records to reach the other member before their {SHARE_LOCK_MS} ms locks end "
              "(the broker releases a closed connection's share session, as Kafka 4.4)", timeout=HELD_WAIT_S)
        took = time.monotonic() - t0
        time.sleep(0.5)  # a rejected or duplicate delivery would show by now
        got = counts()
        share_check(second.shared, topic, "second member")
        if got.keys() != rest or any(len(c) != 1 for c in got.values()):
            raise Failed(f"the other member got offsets (delivery counts) {got}, expected {sorted(rest)} once each "
                         f"(rejected: {sorted(acted['reject'])})")
        low = {o: c for o, c in got.items() if o in acted["release"] | acted["hold"] and c[0] < 2}
        if low:
            raise Failed(f"redelivered records at delivery count 1: {low}")
        start = share_done(env, group, topic, REDELIVER_RECORDS, [second], empty=False)
        def seen(kind: str) -> str:
            return "/".join(str(got[o][0]) for o in sorted(acted[kind]))
        when = "while the holder lived" if released_alive else "with the holder's death (its client had fetched them)"
        return (f"released {sorted(acted['release'])} came again at count {seen('release')} {when}; held "
                f"{sorted(acted['hold'])} came again {took:.1f}s after the holder's SIGKILL at count {seen('hold')}; "
                f"rejected {sorted(acted['reject'])} "
                f"never again (a sentinel came alone); start offset {start}")
    return run_members(body)


PHASE1: dict[str, Callable[[MemberSpec, Env], str]] = {
    "group-split": group_split, "group-walk": group_walk,
    "group-commit-resume": group_commit_resume, "group-expel": group_expel,
    "consumer-protocol-walk": lambda spec, env: group_walk(spec, env, "consumer"),
    "consumer-protocol-resume": lambda spec, env: group_commit_resume(spec, env, "consumer"),
    "share-split": share_split, "share-redeliver": share_redeliver,
}


def run(name: str, fn: Callable[[], str]) -> tuple[str, str]:
    """(status, detail) of one scenario call."""
    try:
        return "pass", fn()
    except NotApplicable as e:
        return "n/a", str(e)
    except Failed as e:
        return "fail", str(e)
    except Exception as e:  # noqa: BLE001 - wire errors, a member's broken output: a failure, not a crash
        return "fail", f"{name}: {type(e).__name__}: {e}"
