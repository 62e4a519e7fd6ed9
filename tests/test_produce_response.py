"""The hand-written ProduceResponse encoder matches the generic one, byte for byte."""

from __future__ import annotations

import uuid

import pytest

from josefk.cli.kafka_messages import response_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.produce_response import PartitionResult, encode_produce_response

TOPICS = [("orders", [PartitionResult(0, 0, 1234, -1, 0, None), PartitionResult(3, 6, -1, -1, -1, "not leader")]),
          ("ünïcode", [PartitionResult(1, 0, 2**40, 1_700_000_000_000, 17, None)])]


@pytest.mark.parametrize("version", range(0, 13))
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


def test_v13_answers_by_topic_id():
    """KIP-516: from v13 a topic is its 16-byte id, where earlier versions put its name."""
    ids = [uuid.UUID(int=7), uuid.UUID(int=2**127 + 1)]
    cls = response_class(ApiKey.Produce)
    topic_cls = cls.TopicProduceResponse
    part_cls = topic_cls.PartitionProduceResponse
    generic = cls(throttle_time_ms=5, node_endpoints=[], responses=[
        topic_cls(topic_id=topic_id, partition_responses=[part_cls(
            index=p.partition_index, error_code=p.error_code, base_offset=p.base_offset,
            log_append_time_ms=p.log_append_time, log_start_offset=p.log_start_offset, record_errors=[],
            error_message=p.error_message) for p in parts])
        for topic_id, (_name, parts) in zip(ids, TOPICS, strict=True)])
    by_id = [(topic_id, parts) for topic_id, (_name, parts) in zip(ids, TOPICS, strict=True)]
    assert encode_produce_response(13, by_id, throttle_time_ms=5) == bytes(generic.encode(version=13))
