"""Spliced responses are byte-for-byte what encoding the real records would give."""

from __future__ import annotations

import pytest

from josefk.cli.kafka_messages import response_class
from josefk.protocol import zero_copy
from josefk.protocol.apis import ApiKey


class FakeRegion:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.size = len(data)

    def read_bytes(self) -> bytes:
        return self.data


def _response(version: int, records: list[bytes]):
    cls = response_class(ApiKey.Fetch)
    parts = [cls.FetchableTopicResponse.PartitionData(
        partition_index=i, error_code=0, high_watermark=10, last_stable_offset=10, log_start_offset=0,
        aborted_transactions=[], preferred_read_replica=-1, records=r) for i, r in enumerate(records)]
    return cls(throttle_time_ms=0, error_code=0, session_id=0, node_endpoints=[],
               responses=[cls.FetchableTopicResponse(topic="t", partitions=parts)])


@pytest.mark.parametrize("version", [4, 11, 12, 16])
def test_splice_equals_direct_encoding(version):
    real = [b"a" * 300, b"b" * 70_000, b"c"]
    expected = bytes(_response(version, real).encode(version=version))
    tokens = [zero_copy.placeholder() for _ in real]
    encoded = _response(version, tokens).encode(version=version)
    flexible = response_class(ApiKey.Fetch).flexible_version_q(version)
    fills: list[tuple[bytes, list[zero_copy.Part]]] = [(t, [FakeRegion(r[:10]), FakeRegion(r[10:])])
                                                       for t, r in zip(tokens, real, strict=True)]
    parts = zero_copy.splice(encoded, fills, flexible)
    joined = b"".join(bytes(p) if isinstance(p, (bytes, bytearray, memoryview)) else p.read_bytes() for p in parts)
    assert joined == expected
    assert sum(zero_copy.part_size(p) for p in parts) == len(expected)
