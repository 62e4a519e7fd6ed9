"""Old fetch versions against data they cannot carry: every fetch is answered, per partition.

Fetch v0-v3 down-converts v2 batches to message sets. zstd cannot be expressed there and
corrupt data cannot be converted; either must give that partition Kafka's error code
(UNSUPPORTED_COMPRESSION_TYPE, CORRUPT_MESSAGE) while the other partitions of the same
response are served, whether the fetch is answered at once or after waiting (max_wait_ms).
"""

from __future__ import annotations

import asyncio
import struct
import time
from pathlib import Path

import pytest
from kafka import KafkaConsumer, TopicPartition
from kafka.errors import UnsupportedCompressionTypeError

from harness.wire import call, connect, encode_request, read_frame
from josefk.cli.kafka_messages import request_class, response_class
from josefk.protocol import compression as codecs
from josefk.protocol import legacy
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.record_codec import Record, build_batch
from josefk.protocol.records import CRC_OFFSET, HEADER_SIZE, compute_crc, read_header
from josefk.replication.purgatory import DelayedOperation, DelayedOperationPurgatory, current_request


def _create(sock, topic: str, partitions: int, **configs: str) -> None:
    cls = request_class(ApiKey.CreateTopics)
    entry = cls.CreatableTopic(name=topic, num_partitions=partitions, replication_factor=1, assignments=[],
                               configs=[cls.CreatableTopic.CreatableTopicConfig(name=k.replace("_", "."), value=v)
                                        for k, v in configs.items()])
    _cid, response = call(sock, ApiKey.CreateTopics, 4, topics=[entry], timeout_ms=10000, validate_only=False)
    assert response.topics[0].error_code == 0, response


def _produce(sock, topic: str, partition: int, batch: bytes) -> int:
    cls = request_class(ApiKey.Produce)
    data = cls.TopicProduceData(name=topic, partition_data=[
        cls.TopicProduceData.PartitionProduceData(index=partition, records=batch)])
    _cid, response = call(sock, ApiKey.Produce, 8, transactional_id=None, acks=1, timeout_ms=5000, topic_data=[data])
    result = response.responses[0].partition_responses[0]
    assert result.error_code == 0, result
    return result.base_offset


def _batch(codec: int, n: int = 3) -> bytes:
    now = int(time.time() * 1000)
    return build_batch([Record(i, now, b"k%d" % i, b"value-%d" % i * 20) for i in range(n)], compression=codec)


def _fetch(sock, version: int, topic: str, offsets: dict[int, int], max_wait_ms: int = 0, min_bytes: int = 1):
    cls = request_class(ApiKey.Fetch)
    parts = [cls.FetchTopic.FetchPartition(partition=p, fetch_offset=o, partition_max_bytes=1 << 20)
             for p, o in offsets.items()]
    _cid, response = call(sock, ApiKey.Fetch, version, replica_id=-1, max_wait_ms=max_wait_ms, min_bytes=min_bytes,
                          max_bytes=1 << 20, topics=[cls.FetchTopic(topic=topic, partitions=parts)])
    return {p.partition_index: p for t in response.responses for p in t.partitions}


def test_fetch_v3_of_zstd_data_answers_unsupported_compression_and_serves_other_partitions(broker):
    sock = connect(broker.bootstrap)
    _create(sock, "mixed", 2)
    _produce(sock, "mixed", 0, _batch(codecs.ZSTD))
    _produce(sock, "mixed", 1, _batch(codecs.GZIP))
    parts = _fetch(sock, 3, "mixed", {0: 0, 1: 0})
    assert parts[0].error_code == ErrorCode.UNSUPPORTED_COMPRESSION_TYPE
    assert parts[0].records in (b"", None)
    assert parts[1].error_code == 0
    assert [m.value for m in legacy.decode_message_set(parts[1].records)] == [b"value-%d" % i * 20 for i in range(3)]
    sock.close()


def test_delayed_fetch_v3_of_zstd_data_is_answered_when_it_expires(broker):
    """The fuzzing find: a waiting fetch that expires while its data needs down-conversion."""
    sock = connect(broker.bootstrap)
    _create(sock, "zwait", 2)
    _produce(sock, "zwait", 0, _batch(codecs.ZSTD))
    started = time.monotonic()
    parts = _fetch(sock, 3, "zwait", {0: 0, 1: 0}, max_wait_ms=300, min_bytes=10_000_000)
    assert time.monotonic() - started >= 0.25, "the fetch did not wait"
    assert parts[0].error_code == ErrorCode.UNSUPPORTED_COMPRESSION_TYPE
    assert parts[1].error_code == 0
    # the connection is not stalled: the next request is answered
    _cid, meta = call(sock, ApiKey.Metadata, 1, correlation_id=7, topics=[])
    assert meta.brokers
    sock.close()


def test_delayed_fetch_v3_completed_by_a_zstd_append_is_answered(broker):
    sock = connect(broker.bootstrap)
    producer = connect(broker.bootstrap)
    _create(sock, "zlate", 1)
    cls = request_class(ApiKey.Fetch)
    body = cls(replica_id=-1, max_wait_ms=20000, min_bytes=1, max_bytes=1 << 20, topics=[cls.FetchTopic(
        topic="zlate", partitions=[cls.FetchTopic.FetchPartition(partition=0, fetch_offset=0,
                                                                 partition_max_bytes=1 << 20)])])
    sock.sendall(encode_request(ApiKey.Fetch, 3, body, correlation_id=42))
    time.sleep(0.2)  # let the fetch reach the purgatory; if not, it is answered at once, just as well
    _produce(producer, "zlate", 0, _batch(codecs.ZSTD))
    sock.settimeout(10)
    frame = read_frame(sock)
    response = response_class(ApiKey.Fetch).decode(frame[4:], version=3)
    assert struct.unpack_from(">i", frame)[0] == 42
    assert response.responses[0].partitions[0].error_code == ErrorCode.UNSUPPORTED_COMPRESSION_TYPE
    sock.close()
    producer.close()


def test_topic_configured_for_zstd_refuses_fetch_below_v10(broker):
    """Kafka's rule (KafkaApis.maybeConvertFetchedData): compression.type=zstd and Fetch < v10."""
    sock = connect(broker.bootstrap)
    _create(sock, "zcfg", 1, compression_type="zstd")
    _produce(sock, "zcfg", 0, _batch(codecs.NONE))
    assert _fetch(sock, 4, "zcfg", {0: 0})[0].error_code == ErrorCode.UNSUPPORTED_COMPRESSION_TYPE
    assert _fetch(sock, 10, "zcfg", {0: 0})[0].error_code == 0
    sock.close()


def test_kafka_python_consumer_at_0_10_gets_an_error_not_a_hang(broker):
    sock = connect(broker.bootstrap)
    _create(sock, "zold", 1)
    _produce(sock, "zold", 0, _batch(codecs.ZSTD))
    sock.close()
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, api_version=(0, 10), enable_auto_commit=False,
                             fetch_max_wait_ms=200, request_timeout_ms=5000)
    tp = TopicPartition("zold", 0)
    consumer.assign([tp])
    consumer.seek(tp, 0)
    try:
        deadline = time.monotonic() + 20
        with pytest.raises(UnsupportedCompressionTypeError):
            while time.monotonic() < deadline:
                assert not consumer.poll(timeout_ms=500), "zstd records reached a 0.10 consumer"
    finally:
        consumer.close()


def _corrupt_payload_keep_crc(segment: Path) -> None:
    """Overwrite the first batch's compressed payload with garbage and re-sign it: the kind of
    batch only a buggy writer produces, which CRC checks cannot catch."""
    data = bytearray(segment.read_bytes())
    header = read_header(data, 0)
    start = HEADER_SIZE + 4
    data[start : header.size] = b"\xa5" * (header.size - start)
    struct.pack_into(">I", data, CRC_OFFSET, compute_crc(data, header))
    with open(segment, "r+b") as f:
        f.write(data[: header.size])


@pytest.mark.parametrize("damage", ["bit flip", "payload with a valid CRC"])
def test_corrupt_batch_on_disk_read_by_fetch_v2_is_that_partitions_corrupt_message(broker, tmp_path, damage):
    sock = connect(broker.bootstrap)
    _create(sock, "rot", 2)
    _produce(sock, "rot", 0, _batch(codecs.GZIP))
    _produce(sock, "rot", 1, _batch(codecs.GZIP))
    segment = tmp_path / "logs" / "rot-0" / "00000000000000000000.log"
    if damage == "bit flip":
        with open(segment, "r+b") as f:
            f.seek(HEADER_SIZE + 5)
            byte = f.read(1)
            f.seek(HEADER_SIZE + 5)
            f.write(bytes([byte[0] ^ 0x10]))
    else:
        _corrupt_payload_keep_crc(segment)
    parts = _fetch(sock, 2, "rot", {0: 0, 1: 0}, max_wait_ms=100, min_bytes=10_000_000)
    assert parts[0].error_code == ErrorCode.CORRUPT_MESSAGE
    assert parts[1].error_code == 0 and len(legacy.decode_message_set(parts[1].records)) == 3
    sock.close()


class _Broken(DelayedOperation):
    """Watches quietly until told to break: in its condition check, or in its completion."""

    def __init__(self) -> None:
        super().__init__(timeout_ms=20)
        self.breaks = ""

    def try_complete(self) -> bool:
        if self.breaks == "check":
            raise ValueError("broken condition")
        return self.force_complete() if self.breaks == "completion" else False

    def on_complete(self) -> None:
        raise ValueError("broken completion")


class _FakeRequest:
    """A PendingRequest: what a delayed operation needs of its request."""

    def __init__(self) -> None:
        self.closed = 0

    def describe(self) -> str:
        return "Fetch v3 from 127.0.0.1 (client t)"

    def close_connection(self) -> None:
        self.closed += 1


@pytest.mark.parametrize("breaks", ["check", "completion", "expiry"])
def test_a_failing_delayed_operation_closes_its_own_requests_connection(breaks, caplog):
    """Neither the timer callback nor another request's check() sees the exception; the
    operation's own request has its connection closed, with a log line."""

    async def run() -> tuple[_FakeRequest, DelayedOperationPurgatory]:
        purgatory = DelayedOperationPurgatory("Fetch")
        request = _FakeRequest()
        current_request.set(request)  # the handler of this request creates the operation
        op = _Broken()
        current_request.set(None)
        purgatory.try_complete_else_watch(op, [("t", 0), ("t", 1)])
        if breaks == "expiry":
            await asyncio.sleep(0.1)
        else:
            op.breaks = breaks
            purgatory.check(("t", 1))  # another request's append: must not see the exception
        return request, purgatory

    request, purgatory = asyncio.run(run())
    assert request.closed == 1
    assert len(purgatory) == 0, "the failed operation is still watched"
    assert "closing the connection" in caplog.text
