"""Fetches over many mostly empty partitions: the empty-read short cuts (Log.read without
its I/O guard, the fetch handler's short way for a partition with nothing read) answer
exactly what the full path answers, and a partition that gains data after being read
empty is served; the heap refreezing that keeps full collections cheap."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from harness.wire import call, connect, create_topic
from josefk.cli.kafka_messages import request_class
from josefk.log.config import LogConfig
from josefk.log.log import Log
from josefk.log.log_dir_failure import LogDirFailureChannel
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.record_codec import Record, build_batch
from josefk.utils.heap import HeapFreezer


def _batch(n: int = 2) -> bytes:
    return build_batch([Record(i, 1000 + i, None, b"v%d" % i) for i in range(n)])


@pytest.mark.unit
def test_empty_read_at_the_end_and_at_the_high_watermark(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    assert log.read(0, 1 << 20).regions == []  # an empty log
    log.append_as_leader(_batch(2), 0)
    log.update_high_watermark(1)
    empty = log.read(2, 1 << 20)
    assert (empty.fetch_offset, empty.regions) == (2, [])
    assert log.read(1, 1 << 20, max_offset=1).regions == []  # at the high watermark: nothing exposed
    assert log.read(0, 1 << 20).regions  # below it: the batch


@pytest.mark.unit
def test_empty_read_keeps_the_errors_of_the_full_path(tmp_path: Path) -> None:
    failures = LogDirFailureChannel()
    log = Log(tmp_path / "d" / "t-0", LogConfig(), failure_channel=failures)
    log.append_as_leader(_batch(2), 0)
    with pytest.raises(KafkaError) as e:  # past the log end
        log.read(3, 1 << 20)
    assert e.value.code == ErrorCode.OFFSET_OUT_OF_RANGE
    failures.maybe_add_offline_log_dir(tmp_path / "d", "test", OSError("gone"))
    with pytest.raises(KafkaError) as e:  # its dir offline: even a read with nothing to return refuses
        log.read(2, 1 << 20)
    assert e.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    closed = Log(tmp_path / "e" / "t-0", LogConfig())
    closed.close()
    with pytest.raises(KafkaError) as e:
        closed.read(0, 1 << 20)
    assert e.value.code == ErrorCode.KAFKA_STORAGE_ERROR


@pytest.mark.unit
def test_a_partition_read_empty_is_served_once_it_has_data(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    assert log.read(0, 1 << 20).regions == []
    log.append_as_leader(_batch(3), 0)
    assert log.read(0, 1 << 20).size > 0


@pytest.mark.unit
def test_heap_refrozen_as_partitions_grow() -> None:
    frozen: list[int] = []
    heap = HeapFreezer(min_growth=1000, freeze=lambda: frozen.append(1))
    counts = (10, 999, 1000, 1999, 2000, 8000, 9999, 10000)  # 1,000 more, and a quarter more
    assert [heap.grown_to(n) for n in counts] == [False, False, True, False, True, True, False, True]
    assert len(frozen) == 4
    assert not heap.grown_to(100)  # deletions: growth counts from the smaller count
    assert heap.grown_to(1100)


def _topic_id(sock, topic: str):
    cls = request_class(ApiKey.Metadata)
    _cid, meta = call(sock, ApiKey.Metadata, 12, topics=[cls.MetadataRequestTopic(topic_id=None, name=topic)],
                      allow_auto_topic_creation=False, include_topic_authorized_operations=False)
    return meta.topics[0].topic_id


def _produce(sock, topic: str, partition: int, n: int) -> None:
    cls = request_class(ApiKey.Produce)
    data = cls.TopicProduceData(name=topic, partition_data=[
        cls.TopicProduceData.PartitionProduceData(index=partition, records=_batch(n))])
    _cid, response = call(sock, ApiKey.Produce, 8, transactional_id=None, acks=1, timeout_ms=5000, topic_data=[data])
    assert response.responses[0].partition_responses[0].error_code == 0


def _fetch(sock, topic_id, offsets: dict[int, int], session_id: int = 0, epoch: int = -1, isolation: int = 0,
           max_wait_ms: int = 0):
    cls = request_class(ApiKey.Fetch)
    parts = [cls.FetchTopic.FetchPartition(partition=p, fetch_offset=o, partition_max_bytes=1 << 20)
             for p, o in offsets.items()]
    return call(sock, ApiKey.Fetch, 16, replica_id=-1, max_wait_ms=max_wait_ms, min_bytes=1, max_bytes=1 << 20,
                isolation_level=isolation, session_id=session_id, session_epoch=epoch,
                topics=[cls.FetchTopic(topic_id=topic_id, partitions=parts)] if parts else [],
                forgotten_topics_data=[], rack_id="")[1]


def _listed(response) -> dict[int, tuple]:
    return {p.partition_index: (p.error_code, p.high_watermark, p.last_stable_offset, p.log_start_offset,
                                p.aborted_transactions, bytes(p.records or b""))
            for t in response.responses for p in t.partitions}


def test_sessionless_fetch_of_many_partitions(broker) -> None:
    sock = connect(broker.bootstrap)
    create_topic(sock, "many", 20)
    topic_id = _topic_id(sock, "many")
    for p in range(0, 20, 5):
        _produce(sock, "many", p, 2)
    # every partition is listed, in request order; the empty ones with their offsets and no records
    for isolation, aborted in ((0, None), (1, [])):
        listed = _listed(_fetch(sock, topic_id, {p: 2 if p % 5 == 0 else 0 for p in range(20)}, isolation=isolation))
        assert list(listed) == list(range(20))
        for p, (error, hw, lso, start, aborted_txns, records) in listed.items():
            assert (error, hw, lso, start, aborted_txns, records) == (0, 2 if p % 5 == 0 else 0,
                                                                       2 if p % 5 == 0 else 0, 0, aborted, b"")
    # read from 0, the partitions with data return it beside the empty ones
    listed = _listed(_fetch(sock, topic_id, {p: 0 for p in range(20)}))
    assert {p for p, v in listed.items() if v[5]} == {0, 5, 10, 15}
    # a partition read empty gains data: the next fetch serves it
    _produce(sock, "many", 3, 1)
    listed = _listed(_fetch(sock, topic_id, {3: 0, 4: 0}))
    assert listed[3][1] == 1 and listed[3][5] and listed[4][5] == b""
    # past the end: OFFSET_OUT_OF_RANGE, as before
    assert _listed(_fetch(sock, topic_id, {4: 5}))[4][0] == ErrorCode.OFFSET_OUT_OF_RANGE
    sock.close()


def test_incremental_session_omits_empty_partitions_until_they_change(broker) -> None:
    sock = connect(broker.bootstrap)
    create_topic(sock, "inc", 10)
    topic_id = _topic_id(sock, "inc")
    full = _fetch(sock, topic_id, {p: 0 for p in range(10)}, epoch=0)
    session = full.session_id
    assert session != 0 and list(_listed(full)) == list(range(10))
    # nothing changed: no partition listed
    assert _fetch(sock, topic_id, {}, session, 1).responses == []
    # one gains data: it alone is listed, with its records; then it is quiet again
    _produce(sock, "inc", 7, 2)
    new = _listed(_fetch(sock, topic_id, {}, session, 2))
    assert list(new) == [7] and new[7][1] == 2 and new[7][5]
    assert _fetch(sock, topic_id, {7: 2}, session, 3).responses == []
    # a long poll with nothing new waits and answers empty; data arriving meanwhile is served
    t0 = time.monotonic()
    assert _fetch(sock, topic_id, {}, session, 4, max_wait_ms=200).responses == []
    assert time.monotonic() - t0 >= 0.15
    _produce(sock, "inc", 1, 1)
    assert list(_listed(_fetch(sock, topic_id, {}, session, 5, max_wait_ms=200))) == [1]
    sock.close()
