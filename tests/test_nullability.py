"""check_non_nullable refuses a null where the request schema does not allow one, at any
depth, in Kafka's words, and lets nulls through where the version allows them."""

from __future__ import annotations

from typing import Any

import pytest

from josefk.protocol.apis import ApiKey, request_class
from josefk.protocol.headers import MalformedRequest
from josefk.protocol.nullability import check_non_nullable

pytestmark = pytest.mark.unit

PRODUCE = request_class(ApiKey.Produce)
METADATA = request_class(ApiKey.Metadata)
DESCRIBE_GROUPS = request_class(ApiKey.DescribeGroups)
DESCRIBE_PARTITIONS = request_class(ApiKey.DescribeTopicPartitions)


def _produce(name: str | None, records: bytes | None, partitions: bool = True) -> Any:
    data = PRODUCE.TopicProduceData(name=name, partition_data=[
        PRODUCE.TopicProduceData.PartitionProduceData(index=0, records=records)] if partitions else None)
    return PRODUCE(transactional_id=None, acks=1, timeout_ms=1000, topic_data=[data])


def _partitions(cursor_topic: str | None) -> Any:
    topic = DESCRIBE_PARTITIONS.TopicRequest(name="t")
    cursor = DESCRIBE_PARTITIONS.Cursor(topic_name=cursor_topic, partition_index=0)
    return DESCRIBE_PARTITIONS(topics=[topic], response_partition_limit=10, cursor=cursor)


REFUSED = [
    ("top-level array", METADATA(topics=None), 0, "non-nullable field Topics was serialized as null"),
    ("string in a struct array", _produce(None, b""), 9, "non-nullable field Name was serialized as null"),
    ("array in a struct array", _produce("t", b"", partitions=False), 9,
     "non-nullable field PartitionData was serialized as null"),
    ("element of a string array", DESCRIBE_GROUPS(groups=["g", None]), 0,
     "non-nullable field Groups element was serialized as null"),
    ("string in a struct", _partitions(None), 0, "non-nullable field TopicName was serialized as null"),
]
ALLOWED = [
    ("nullable array (v1+)", METADATA(topics=None), 1),
    ("nullable records and transactional id", _produce("t", None), 9),
    ("nullable struct", DESCRIBE_PARTITIONS(topics=[], response_partition_limit=10, cursor=None), 0),
    ("no nulls", _partitions("t"), 0),
]


@pytest.mark.parametrize(("case", "message", "version", "error"), REFUSED, ids=[c[0] for c in REFUSED])
def test_a_null_where_the_schema_forbids_it_is_malformed(case, message, version, error):
    for _ in range(2):  # the second time from the cached checks
        with pytest.raises(MalformedRequest) as raised:
            check_non_nullable(message, version)
        assert str(raised.value) == error


@pytest.mark.parametrize(("case", "message", "version"), ALLOWED, ids=[c[0] for c in ALLOWED])
def test_a_null_the_version_allows_passes(case, message, version):
    check_non_nullable(message, version)
    check_non_nullable(message, version)
