"""Seed corpora from real traffic: what recorded clients sent, and record sets built the way
producers build them, for every codec and message format. Mutating real inputs reaches far
deeper than random bytes, which nearly all fail the first length check."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from josefk.protocol import compression as codecs
from josefk.protocol.apis import KAFKA_39_VERSIONS
from josefk.protocol.apis import advertised as advertised_range
from josefk.protocol.legacy import CREATE_TIME, LegacyMessage, build_message_set
from josefk.protocol.messages.api import request_class
from josefk.protocol.record_codec import Record, build_batch

RECORDED = Path(__file__).resolve().parent.parent / "tests" / "data" / "recorded_requests.json"

CODECS = (codecs.NONE, codecs.GZIP, codecs.SNAPPY, codecs.LZ4, codecs.ZSTD)
NOW_MS = 1_700_000_000_000


def recorded_requests() -> list[bytes]:
    """Request payloads (header and body, no size prefix) as real clients sent them."""
    return [bytes.fromhex(entry["hex"]) for entry in json.loads(RECORDED.read_text())]


def advertised() -> list[tuple[int, int]]:
    """Every (api key, version) josefk can advertise: a broker's ApiVersions has exactly these
    ranges, for the APIs KafkaApis has handlers for."""
    return [(int(key), version) for key in KAFKA_39_VERSIONS
            for version in range(advertised_range(key)[0], advertised_range(key)[1] + 1)]


def default_bodies() -> Iterator[tuple[int, int, bytes]]:
    """A request body of every advertised API and version, with its schema's defaults."""
    for api_key, version in advertised():
        yield api_key, version, bytes(request_class(api_key)().encode(version=version))


def _records(count: int, *, headers: bool = True) -> list[Record]:
    return [
        Record(i, NOW_MS + i, None if i % 3 == 0 else f"key-{i}".encode(), b"v" * (i * 7 % 40),
               [("h", b"x"), ("trace", None)] if headers and i % 2 else [])
        for i in range(count)
    ]


def batches() -> Iterator[bytes]:
    """v2 record sets: one batch per codec, idempotent and transactional ones, two batches in a row."""
    for codec in CODECS:
        yield build_batch(_records(5), compression=codec)
        yield build_batch(_records(1, headers=False), compression=codec, producer_id=7, producer_epoch=0,
                          base_sequence=0)
    yield build_batch(_records(3), producer_id=9, producer_epoch=1, base_sequence=0, is_transactional=True)
    yield build_batch(_records(2)) + build_batch(_records(2), compression=codecs.GZIP)


def message_sets() -> Iterator[bytes]:
    """Legacy message sets (magic 0 and 1) as old clients produce them, plain and compressed."""
    for magic in (0, 1):
        messages = [
            LegacyMessage(i, magic, NOW_MS + i if magic else -1, CREATE_TIME if magic else -1,
                          None if i == 0 else b"k%d" % i, b"value-%d" % i)
            for i in range(4)
        ]
        for codec in CODECS[:4]:
            yield build_message_set(messages, magic, codec)


def payloads() -> Iterator[bytes]:
    """Plain byte strings for the codecs: empty, short, repetitive and incompressible."""
    yield b""
    yield b"josefk"
    yield b"a" * 5000
    yield bytes(range(256)) * 4
    yield from batches()
