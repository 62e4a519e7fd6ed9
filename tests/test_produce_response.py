"""The hand-written ProduceResponse encoder matches the generic one, byte for byte."""

from __future__ import annotations

import pytest

from josefk.cli.kafka_messages import response_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.produce_response import PartitionResult, encode_produce_response

TOPICS = [("orders", [PartitionResult(0, 0, 1234, -1, 0, None), PartitionResult(3, 6, -1, -1, -1, "not leader")]),
          ("ünïcode", [PartitionResult(1, 0, 2**40, 1_700_000_000_000, 17, None)])]


@pytest.mark.parametrize("version", range(0, 12))
def test_matches_generic_encoder(version):
    cls = response_class(ApiKey.Produce)
    topic_cls = cls.TopicProduceResponse
    part_cls = topic_cls.PartitionProduceResponse
    generic = cls(throttle_time_ms=5, node_endpoints=[], responses=[
        topic_cls(name=name, partition_responses=[part_cls(
            index=p.partition_index, error_code=p.error_code, base_offset=p.base_offset,
            log_append_time_ms=p.log_append_time, log_start_offset=p.log_start_offset, record_errors=[],
            error_message=p.error_message) for p in parts])
        for name, parts in TOPICS])
    assert encode_produce_response(version, TOPICS, throttle_time_ms=5) == bytes(generic.encode(version=version))
