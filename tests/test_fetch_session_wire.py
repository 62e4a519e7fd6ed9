"""Fetch sessions (KIP-227) over the wire: a full fetch opens a session, incremental fetches
list only what changed, and a wrong session id or epoch is refused (70, 71)."""

from __future__ import annotations

import time

from harness.wire import call, connect, create_topic
from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.fetch_response import FetchResponse, PartitionData
from josefk.protocol.record_codec import Record, build_batch


def _produce(sock, topic: str, partition: int, n: int = 1) -> None:
    cls = request_class(ApiKey.Produce)
    now = int(time.time() * 1000)
    batch = build_batch([Record(i, now, None, b"v%d" % i) for i in range(n)])
    data = cls.TopicProduceData(name=topic, partition_data=[
        cls.TopicProduceData.PartitionProduceData(index=partition, records=batch)])
    _cid, response = call(sock, ApiKey.Produce, 8, transactional_id=None, acks=1, timeout_ms=5000, topic_data=[data])
    assert response.responses[0].partition_responses[0].error_code == 0


def _fetch(sock, session_id: int, epoch: int, offsets: dict, forgotten: list | None = None, version: int = 12,
           topic: str = "sess", max_wait_ms: int = 0):
    cls = request_class(ApiKey.Fetch)
    parts = [cls.FetchTopic.FetchPartition(partition=p, fetch_offset=o, partition_max_bytes=1 << 20)
             for p, o in offsets.items()]
    topics = [cls.FetchTopic(topic=topic, partitions=parts)] if parts else []
    forgotten_topics = [cls.ForgottenTopic(topic=topic, partitions=forgotten)] if forgotten else []
    _cid, response = call(sock, ApiKey.Fetch, version, replica_id=-1, max_wait_ms=max_wait_ms, min_bytes=1,
                          max_bytes=1 << 20, isolation_level=0, session_id=session_id, session_epoch=epoch,
                          topics=topics, forgotten_topics_data=forgotten_topics, rack_id="")
    return response


def _listed(response: FetchResponse) -> dict[int, PartitionData]:
    return {p.partition_index: p for t in response.responses for p in t.partitions}


def test_fetch_session_over_the_wire(broker):
    sock = connect(broker.bootstrap)
    create_topic(sock, "sess", 2)
    _produce(sock, "sess", 0, 2)

    full = _fetch(sock, 0, 0, {0: 0, 1: 0})
    assert full.error_code == 0
    session_id = full.session_id
    assert session_id != 0
    assert set(_listed(full)) == {0, 1}
    assert _listed(full)[0].high_watermark == 2

    # incremental, nothing new (the consumer moved its offset on partition 0): no partitions
    empty = _fetch(sock, session_id, 1, {0: 2}, max_wait_ms=50)
    assert (empty.error_code, empty.session_id, empty.responses) == (0, session_id, [])

    # a new record on partition 1 appears in the next incremental response, alone
    _produce(sock, "sess", 1)
    new = _fetch(sock, session_id, 2, {})
    assert new.session_id == session_id
    assert set(_listed(new)) == {1}
    assert _listed(new)[1].high_watermark == 1 and _listed(new)[1].records

    # a wrong epoch: INVALID_FETCH_SESSION_EPOCH, and the session is still there
    wrong = _fetch(sock, session_id, 7, {})
    assert (wrong.error_code, wrong.session_id, wrong.responses) == (ErrorCode.INVALID_FETCH_SESSION_EPOCH, 0, [])
    # an unknown session id: FETCH_SESSION_ID_NOT_FOUND
    unknown = _fetch(sock, session_id + 1 if session_id < 2**31 - 1 else 1, 3, {})
    assert (unknown.error_code, unknown.responses) == (ErrorCode.FETCH_SESSION_ID_NOT_FOUND, [])

    # forgetting partition 0 leaves 1; its offset moved (fetched 1 record): nothing to say
    after = _fetch(sock, session_id, 3, {1: 1}, forgotten=[0])
    assert (after.error_code, after.responses) == (0, [])
    # FINAL_EPOCH closes it: a sessionless answer, and the id is gone
    final = _fetch(sock, session_id, -1, {0: 0})
    assert (final.error_code, final.session_id, set(_listed(final))) == (0, 0, {0})
    gone = _fetch(sock, session_id, 4, {})
    assert gone.error_code == ErrorCode.FETCH_SESSION_ID_NOT_FOUND
    sock.close()


def test_fetch_session_with_topic_ids(broker):
    sock = connect(broker.bootstrap)
    create_topic(sock, "ids", 1)
    _produce(sock, "ids", 0)
    cls = request_class(ApiKey.Metadata)
    _cid, meta = call(sock, ApiKey.Metadata, 12, topics=[cls.MetadataRequestTopic(topic_id=None, name="ids")],
                      allow_auto_topic_creation=False, include_topic_authorized_operations=False)
    topic_id = meta.topics[0].topic_id
    fcls = request_class(ApiKey.Fetch)

    def fetch(session_id: int, epoch: int, offsets: dict):
        parts = [fcls.FetchTopic.FetchPartition(partition=p, fetch_offset=o, partition_max_bytes=1 << 20)
                 for p, o in offsets.items()]
        topics = [fcls.FetchTopic(topic_id=topic_id, partitions=parts)] if parts else []
        return call(sock, ApiKey.Fetch, 13, replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20,
                    isolation_level=0, session_id=session_id, session_epoch=epoch, topics=topics,
                    forgotten_topics_data=[], rack_id="")[1]

    full = fetch(0, 0, {0: 0})
    assert full.session_id != 0 and full.responses[0].topic_id == topic_id
    assert fetch(full.session_id, 1, {0: 1}).responses == []
    _produce(sock, "ids", 0)
    again = fetch(full.session_id, 2, {})
    assert [(t.topic_id, [p.partition_index for p in t.partitions]) for t in again.responses] == [(topic_id, [0])]
    # a session opened with topic ids cannot go on at v12
    wrong = _fetch(sock, full.session_id, 3, {}, topic="ids")
    assert wrong.error_code == ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR
    sock.close()
