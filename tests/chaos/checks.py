"""The checks run once the faults have stopped. Each returns its violations (empty: it held).

The ISR timeline comes from sampled state znodes. A znode's version numbers every write and its
mtime says when ZooKeeper made it, so a version seen at two sample times was in force, unchanged,
from its mtime to the later sample (or to the next version's mtime, when that is the next
number): that is what makes "the ISR stayed below min.insync.replicas for this whole window" a
proof rather than a guess between samples.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from josefk.protocol.records import CorruptRecordError, iter_headers
from tests.chaos.load import Ack, Commit, IsrSample

# How long a leader may still act on an ISR that ZooKeeper no longer holds: the write's round
# trip and the leader applying it (a pending shrink keeps the larger ISR for the high watermark).
ISR_PROPAGATION = 1.0
# A stretch between two samples longer than this is unknown (ZooKeeper down or unreachable).
SAMPLE_GAP = 1.0


@dataclass(frozen=True, slots=True)
class Span:
    start: float
    end: float


@dataclass(frozen=True, slots=True)
class Version:
    """One state znode version: what the ISR was, and the span it provably held over."""

    leader: int
    isr: tuple[int, ...]
    span: Span


def timelines(samples: list[IsrSample]) -> dict[int, list[Version]]:
    """Per partition, the versions seen, each with the span over which it provably held."""
    seen: dict[int, dict[int, list[IsrSample]]] = defaultdict(lambda: defaultdict(list))
    for sample in samples:
        seen[sample.partition][sample.version].append(sample)
    result: dict[int, list[Version]] = {}
    for partition, versions in seen.items():
        ordered = sorted(versions)
        result[partition] = []
        for i, number in enumerate(ordered):
            first = versions[number][0]
            end = max(s.at for s in versions[number])
            if i + 1 < len(ordered) and ordered[i + 1] == number + 1:
                end = versions[ordered[i + 1]][0].mtime
            result[partition].append(Version(first.leader, first.isr, Span(first.mtime, end)))
    return result


def acks_below_min_isr(acks: list[Ack], samples: list[IsrSample], min_isr: int) -> list[str]:
    """Acks whose whole window, from send() to the ack, lies in one version with an ISR below min_isr."""
    under = {p: [v for v in vs if len(v.isr) < min_isr] for p, vs in timelines(samples).items()}
    violations = []
    for ack in acks:
        for version in under.get(ack.partition, []):
            if version.span.start + ISR_PROPAGATION <= ack.sent and ack.acked <= version.span.end:
                violations.append(f"partition {ack.partition} offset {ack.offset} acknowledged at {ack.acked:.3f}"
                                  f" while the ISR was {list(version.isr)} (since {version.span.start:.3f})")
    return violations


def unexcused_spans(samples: list[IsrSample], start: float, end: float, min_isr: int) -> dict[int, list[Span]]:
    """Per partition, the spans in [start, end] during which producing should have worked: ZooKeeper
    was sampled (no gap over SAMPLE_GAP) and showed a leader with an ISR of at least min_isr."""
    by_partition: dict[int, list[IsrSample]] = defaultdict(list)
    for sample in samples:
        by_partition[sample.partition].append(sample)
    result: dict[int, list[Span]] = {}
    for partition, series in by_partition.items():
        series.sort(key=lambda s: s.at)
        spans: list[Span] = []
        for a, b in zip(series, series[1:], strict=False):
            healthy = a.leader >= 0 and len(a.isr) >= min_isr and b.leader >= 0 and len(b.isr) >= min_isr
            if healthy and b.at - a.at <= SAMPLE_GAP and b.at > start and a.at < end:
                span = Span(max(a.at, start), min(b.at, end))
                if spans and spans[-1].end >= span.start:  # contiguous: one span, so stalls are cheap to sum
                    span = Span(spans.pop().start, span.end)
                spans.append(span)
        result[partition] = spans
    return result


def longest_stall(acks: list[Ack], samples: list[IsrSample], start: float, end: float, min_isr: int
                  ) -> tuple[float, int, float]:
    """The longest time a partition went without an ack while it could take acks=all writes,
    as (seconds, partition, when it began): gaps between acks count only their healthy parts."""
    healthy = unexcused_spans(samples, start, end, min_isr)
    times: dict[int, list[float]] = defaultdict(list)
    for ack in acks:
        times[ack.partition].append(ack.acked)
    worst = (0.0, -1, 0.0)
    for partition, spans in healthy.items():
        points = [start, *sorted(t for t in times[partition] if start < t < end), end]
        for a, b in zip(points, points[1:], strict=False):
            stalled = sum(max(0.0, min(b, s.end) - max(a, s.start)) for s in spans)
            worst = max(worst, (stalled, partition, a))
    return worst


def lost_acks(acks: list[Ack], logs: dict[int, dict[int, bytes]]) -> list[str]:
    """Acknowledged records that are not at their offset, with their value, in the final read."""
    return [f"partition {a.partition} offset {a.offset}: acknowledged {a.value!r}, read "
            f"{logs.get(a.partition, {}).get(a.offset)!r}"
            for a in acks if logs.get(a.partition, {}).get(a.offset) != a.value]


@dataclass(frozen=True, slots=True)
class Writer:
    """Who wrote a record, from its batch header: the idempotent producer and the sequence."""

    producer_id: int
    epoch: int
    sequence: int

    def __str__(self) -> str:
        return f"producer {self.producer_id} epoch {self.epoch} sequence {self.sequence}"


@dataclass(frozen=True, slots=True)
class Duplicates:
    """Values found more than once, split by who is to blame.

    `written_twice`: the broker appended one producer batch twice (same producer and epoch, or
    writers unknown): an idempotent producer's retry must never be appended again, so these are
    violations. `resent`: every later copy came from the same producer id under a higher epoch.
    A producer that bumps its epoch (librdkafka does, KIP-360, when a sequence gap leaves it
    unsure what the broker kept) sends what it had not seen acknowledged again, starting at
    sequence 0: new records to any broker, Kafka's included, which cannot tell them apart."""

    written_twice: list[str]
    resent: list[str]


def duplicates(logs: dict[int, dict[int, bytes]],
               writer: Callable[[int, int], Writer | None] | None = None) -> Duplicates:
    """Values written more than once; `writer(partition, offset)`, when given, names who wrote each
    copy (see `batch_writer`) and decides which of the two kinds a duplicate is."""
    where: dict[bytes, list[tuple[int, int]]] = defaultdict(list)
    for partition, records in logs.items():
        for offset, value in records.items():
            where[value].append((partition, offset))
    found = Duplicates([], [])
    for value, places in where.items():
        if len(places) < 2:
            continue
        writers = [writer(*place) for place in places] if writer else []
        line = f"{value!r} at {places}" + (": " + "; ".join(
            f"offset {offset} by {w or 'an unknown writer'}" for (_, offset), w in zip(places, writers, strict=True))
            if writer else "")
        (found.resent if _resent(writers) else found.written_twice).append(line)
    return found


def _resent(writers: list[Writer | None]) -> bool:
    """Every copy after the first from the same producer id under a strictly higher epoch."""
    if not writers or any(w is None for w in writers):
        return False
    known = [w for w in writers if w is not None]
    return len({w.producer_id for w in known}) == 1 and all(
        a.epoch < b.epoch for a, b in zip(known, known[1:], strict=False))


def batch_writer(partition_dir: Path, offset: int) -> Writer | None:
    """The producer id, epoch and sequence the record at `offset` was written with, from its batch
    in a replica's segments (None when no batch holds it)."""
    for segment in sorted(partition_dir.glob("*.log")):
        data = segment.read_bytes()
        try:
            for header in iter_headers(data):
                if header.base_offset <= offset <= header.last_offset:
                    return Writer(header.producer_id, header.producer_epoch,
                                  header.base_sequence + offset - header.base_offset)
        except CorruptRecordError:
            continue
    return None


def offsets_went_back(commits: list[Commit]) -> list[str]:
    """Commits and read-backs of the group's offsets, in time order, must never decrease per partition."""
    last: dict[int, Commit] = {}
    violations = []
    for commit in sorted(commits, key=lambda c: c.at):
        before = last.get(commit.partition)
        if before is not None and commit.offset < before.offset:
            violations.append(f"partition {commit.partition}: committed offset {before.offset} at {before.at:.3f},"
                              f" then {commit.offset} ({'read back' if commit.read_back else 'committed'})"
                              f" at {commit.at:.3f}")
        last[commit.partition] = commit
    return violations


def replica_batches(partition_dir: Path, high_watermark: int) -> list[tuple[int, bytes]]:
    """(base offset, bytes) of every batch in a replica's segments that starts below the high watermark."""
    batches = []
    for segment in sorted(partition_dir.glob("*.log")):
        data = segment.read_bytes()
        try:
            for header in iter_headers(data):
                if header.base_offset < high_watermark:
                    batches.append((header.base_offset, data[header.position:header.position + header.size]))
        except CorruptRecordError:
            continue  # the tail being written right now
    return batches


def replicas_differ(partition_dirs: dict[int, Path], high_watermark: int) -> list[str]:
    """Every replica holds the same batches, byte for byte, below the high watermark."""
    (reference_broker, reference), *rest = ((b, replica_batches(d, high_watermark)) for b, d in partition_dirs.items())
    violations = []
    for broker, batches in rest:
        if batches != reference:
            diverge = next((mine[0] for mine, theirs in zip(batches, reference, strict=False) if mine != theirs),
                           None)
            where = (f"first differing batch at offset {diverge}" if diverge is not None
                     else f"{len(batches)} batches against {len(reference)}")
            violations.append(f"{partition_dirs[broker].name}: broker {broker} and broker {reference_broker} differ"
                              f" below the high watermark {high_watermark}: {where}")
    return violations
