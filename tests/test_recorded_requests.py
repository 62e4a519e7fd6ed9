"""Decode request bytes recorded from real clients (tests/record_client_requests.py) and
check they re-encode to the same bytes; produced batches decode to what was sent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.headers import parse_request_header
from josefk.protocol.record_codec import decode_batch
from josefk.protocol.records import iter_headers, verify_crc

FRAMES = json.loads((Path(__file__).parent / "data" / "recorded_requests.json").read_text())


@pytest.mark.parametrize("frame", FRAMES, ids=lambda f: f"{f['client']}-{ApiKey(f['api_key']).name}-v{f['version']}")
def test_recorded_request_decodes_and_round_trips(frame):
    payload = bytes.fromhex(frame["hex"])
    header = parse_request_header(payload)
    assert (header.api_key, header.api_version) == (frame["api_key"], frame["version"])
    cls = request_class(header.api_key)
    body = cls.decode(payload[header.size :], version=header.api_version)
    flexible = header.flexible
    reencoded = cls._struct.encode(body, version=header.api_version, compact=flexible, tagged=flexible)
    assert bytes(reencoded) == payload[header.size :]
    if header.api_key == ApiKey.Produce:
        records = body.topic_data[0].partition_data[0].records
        batches = list(iter_headers(records))
        assert batches
        for batch in batches:
            verify_crc(records, batch)
            decoded = decode_batch(records, batch)
            assert [(r.key, r.value, r.headers) for r in decoded] == [(b"k", b"v" * 100, [("h", b"1")])]


def test_recording_covers_both_clients_and_the_hot_apis():
    seen = {(f["client"], f["api_key"]) for f in FRAMES}
    for client in ("confluent-kafka", "kafka-python-3"):
        for api in (ApiKey.ApiVersions, ApiKey.Metadata, ApiKey.Produce, ApiKey.Fetch, ApiKey.InitProducerId):
            assert (client, api) in seen
