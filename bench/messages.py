"""What decoding and re-encoding one message costs: josefk's generated message layer
(josefk.protocol.messages) against kafka-python 3.0.12's classes (the broker's path before it), as
ratios measured in one run.

    .venv/bin/python bench/messages.py
    .venv/bin/python bench/messages.py --against-release 3.9.2   # the merged classes against one release's alone

Messages: a Produce request v9 (one topic, 4 partitions of ~1 KiB record batches, as a producer
with linger sends) and Fetch responses v12 and v16 (one topic, 4 partitions of ~1 KiB records,
one aborted transaction each; v16 adds topic ids and the tagged leader/node fields' shape).
Each figure is the best of 15 rounds of 500 decode+encode pairs, in microseconds of this thread's
CPU time per pair (time.thread_time: time spent waiting for a core on the shared machine does not
count); the two sides' rounds alternate, so what load remains (caches) hits both alike.

With --against-release, the other side is the same message's class generated from that Kafka
release's specs alone (into a temporary folder): what merging the releases' specs costs.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from josefk.cli import kafka_messages as apis  # noqa: E402
from josefk.protocol.messages import generator  # noqa: E402
from josefk.protocol.messages.codec import ApiMessage  # noqa: E402
from josefk.protocol.messages.generated.fetch_response import (  # noqa: E402
    AbortedTransaction,
    FetchableTopicResponse,
    FetchResponse,
    PartitionData,
)
from josefk.protocol.messages.generated.produce_request import (  # noqa: E402
    PartitionProduceData,
    ProduceRequest,
    TopicProduceData,
)
from josefk.protocol.record_codec import Record, build_batch  # noqa: E402

PARTITIONS = 4
ROUNDS, PAIRS = 15, 500


def batch() -> bytes:
    records = [Record(i, 1_700_000_000_000, b"key-%d" % i, b"v" * 90) for i in range(10)]
    return bytes(build_batch(records, base_offset=0))


def produce_request() -> ProduceRequest:
    partitions = [PartitionProduceData(index=p, records=batch()) for p in range(PARTITIONS)]
    return ProduceRequest(acks=-1, timeout_ms=30000, topic_data=[TopicProduceData("bench", partitions)])


def fetch_response(version: int) -> FetchResponse:
    """v13+ name topics by id, older ones by name."""
    partitions = [
        PartitionData(
            partition_index=p,
            high_watermark=1_000_000,
            last_stable_offset=1_000_000,
            log_start_offset=0,
            aborted_transactions=[AbortedTransaction(producer_id=7, first_offset=10)],
            records=batch(),
        )
        for p in range(PARTITIONS)
    ]
    if version >= 13:
        topic = FetchableTopicResponse(topic_id=uuid.UUID(int=42), partitions=partitions)
    else:
        topic = FetchableTopicResponse(topic="bench", partitions=partitions)
    return FetchResponse(session_id=5, responses=[topic])


def best_us(ours: Callable[[], object], theirs: Callable[[], object]) -> tuple[float, float]:
    best = [float("inf"), float("inf")]
    for _ in range(ROUNDS):
        for i, pair in enumerate((ours, theirs)):
            start = time.thread_time()
            for _ in range(PAIRS):
                pair()
            best[i] = min(best[i], (time.thread_time() - start) / PAIRS * 1e6)
    return best[0], best[1]


def release_classes(release: str, folder: Path) -> dict[int, type[ApiMessage]]:
    """The Produce request and Fetch response classes generated from one release's specs alone,
    as a package in folder (on sys.path): api key 0 -> ProduceRequest, 1 -> FetchResponse."""
    package = folder / "release_only"
    package.mkdir()
    for name, text in generator.generate([generator.SPECS / release]).items():
        (package / name).write_text(text)
    sys.path.insert(0, str(folder))
    produce = importlib.import_module("release_only.produce_request").ProduceRequest
    fetch = importlib.import_module("release_only.fetch_response").FetchResponse
    return {0: produce, 1: fetch}


def against_release(release: str) -> None:
    """Merged classes against release-only ones: decode and re-encode the same bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        alone = release_classes(release, Path(tmp))
        cases = [("Produce request v9", 0, produce_request(), 9), ("Fetch response v12", 1, fetch_response(12), 12),
                 ("Fetch response v16", 1, fetch_response(16), 16)]
        print(f"{'message':<20} {'bytes':>6} {'merged µs':>10} {release + ' alone µs':>16} {'ratio':>6}")
        for name, key, message, version in cases:
            wire = bytes(message.encode(version))
            merged_cls, alone_cls = type(message), alone[key]

            def merged(wire: bytes = wire, cls: type[ApiMessage] = merged_cls, version: int = version) -> object:
                return cls.decode(wire, version).encode(version)

            def only(wire: bytes = wire, cls: type[ApiMessage] = alone_cls, version: int = version) -> object:
                return cls.decode(wire, version).encode(version)

            assert merged() == wire and only() == wire
            merged_us, alone_us = best_us(merged, only)
            print(f"{name:<20} {len(wire):>6} {merged_us:>10.1f} {alone_us:>16.1f} {alone_us / merged_us:>5.2f}x")


def main() -> None:
    if sys.argv[1:2] == ["--against-release"]:
        against_release(sys.argv[2])
        return
    cases: list[tuple[str, type[apis.ApiMessage], ApiMessage, int]] = [
        ("Produce request v9", apis.request_class(0), produce_request(), 9),
        ("Fetch response v12", apis.response_class(1), fetch_response(12), 12),
        ("Fetch response v16", apis.response_class(1), fetch_response(16), 16),
    ]
    print(f"{'message':<20} {'bytes':>6} {'josefk µs':>10} {'kafka-python µs':>16} {'ratio':>6}")
    for name, kp_cls, message, version in cases:
        wire = bytes(message.encode(version))
        ours_cls = type(message)
        assert ours_cls.decode(wire, version) == message

        def ours(wire: bytes = wire, cls: type[ApiMessage] = ours_cls, version: int = version) -> object:
            return cls.decode(wire, version).encode(version)

        def theirs(wire: bytes = wire, cls: type[apis.ApiMessage] = kp_cls, version: int = version) -> bytes:
            decoded = cls.decode(memoryview(wire), version=version)
            decoded._header = None  # a decoded kafka-python message has no header slot set
            return decoded.encode(version=version)

        assert bytes(theirs()) == wire
        ours_us, theirs_us = best_us(ours, theirs)
        print(f"{name:<20} {len(wire):>6} {ours_us:>10.1f} {theirs_us:>16.1f} {theirs_us / ours_us:>5.2f}x")


if __name__ == "__main__":
    main()
