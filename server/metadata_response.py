"""A Metadata response put together from topics encoded earlier: after a change of one topic,
an all-topics Metadata over many re-encodes that topic alone (MetadataApis keeps each topic's
bytes). What surrounds the topics is the generated encoder's, cut where its topics array
is; tests/test_metadata_parts.py checks the result byte for byte against it for every version."""

from __future__ import annotations

import functools

from josefk.protocol.messages.codec import write_array_length
from josefk.protocol.messages.generated.metadata_response import MetadataResponse, MetadataResponseTopic


def _tail(version: int) -> int:
    """What the generated encoder writes after the topics array: the cluster's authorized
    operations (v8-v10), the top-level error code (v13+) and the tagged fields (v9+)."""
    return (4 if 8 <= version <= 10 else 0) + (2 if version >= 13 else 0) + (1 if version >= 9 else 0)


def _count_size(version: int) -> int:
    """The bytes of an array's count below 127: int32, or a compact uvarint from v9."""
    return 1 if version >= 9 else 4


@functools.cache
def _topic_start(version: int) -> int:
    """Where the first topic starts in a response with no brokers and default fields."""
    return len(MetadataResponse().encode(version)) - _tail(version)


def encode_topic(topic: MetadataResponseTopic, version: int) -> bytes:
    """One topic's bytes as the generated encoder writes them, cut from a response holding it
    alone (its count takes as many bytes for one topic as for none)."""
    encoded = MetadataResponse(topics=[topic]).encode(version)
    return bytes(encoded[_topic_start(version):len(encoded) - _tail(version)])


def encode_with_topics(response: MetadataResponse, topics: list[bytes], version: int) -> bytes:
    """`response`, which has no topics, encoded with `topics` (encode_topic's) as its topics."""
    assert not response.topics
    encoded = response.encode(version)
    tail = _tail(version)
    count = bytearray()
    write_array_length(count, len(topics), version >= 9)
    cut = len(encoded) - tail
    return b"".join([encoded[:cut - _count_size(version)], count, *topics, encoded[cut:]])
