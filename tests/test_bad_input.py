"""Bad input closes that one connection with a log line; everyone else keeps being served."""

from __future__ import annotations

import socket
import struct
import threading

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition

from harness.wire import call, connect, create_topic, encode_request, read_frame
from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey, advertised
from josefk.protocol.errors import ErrorCode


def _closed_by_broker(sock: socket.socket) -> bool:
    sock.settimeout(10)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


class SteadyTraffic:
    """A producer and consumer that keep going while bad clients misbehave."""

    def __init__(self, bootstrap: str) -> None:
        self.producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", linger_ms=1)
        self.sent: list[int] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run)
        self.thread.start()

    def _run(self) -> None:
        i = 0
        while not self.stop.is_set():
            meta = self.producer.send("steady", value=b"v%d" % i).get(timeout=10)
            self.sent.append(meta.offset)
            i += 1

    def finish(self) -> int:
        self.stop.set()
        self.thread.join(timeout=30)
        self.producer.close()
        return len(self.sent)


@pytest.fixture
def steady(broker):
    traffic = SteadyTraffic(broker.bootstrap)
    yield traffic
    traffic.finish()


def _check_everything_acknowledged_is_readable(bootstrap: str, count: int) -> None:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    tp = TopicPartition("steady", 0)
    consumer.assign([tp])
    consumer.seek(tp, 0)
    values: list[bytes] = []
    while len(values) < count:
        batch = consumer.poll(timeout_ms=5000)
        assert batch, f"only {len(values)} of {count} acknowledged records came back"
        values.extend(r.value for r in batch[tp])
    consumer.close()
    assert values[:count] == [b"v%d" % i for i in range(count)]


BAD_INPUTS = {
    "garbage": b"\x00\x00\x00\x0bthisisjunk!",
    "oversized frame": struct.pack(">i", 200 * 1024 * 1024) + b"\x00" * 16,
    "truncated request": struct.pack(">i", 6) + struct.pack(">hhh", ApiKey.Metadata, 1, 0),
    "unknown api key": struct.pack(">i", 10) + struct.pack(">hhih", 999, 0, 7, -1),
    "unsupported version": struct.pack(">i", 10) + struct.pack(">hhih", ApiKey.Produce, 99, 7, -1),
    "malformed body": struct.pack(">i", 14) + struct.pack(">hhih", ApiKey.Metadata, 1, 7, -1) + b"\x7f\xff\xff\xff",
    "null non-nullable array": struct.pack(">i", 14) + struct.pack(">hhih", ApiKey.Metadata, 0, 7, -1) + b"\xff" * 4,
}
# Found by fuzz/network.py: kafka-python decodes a length of -1 as None for any field, and
# the handlers then failed on it with a traceback; Kafka refuses these as malformed.
NULL_IN_NON_NULLABLE = {
    "Metadata v0 topics": struct.pack(">hhih", ApiKey.Metadata, 0, 7, -1) + struct.pack(">i", -1),
    "Produce v3 topic data": struct.pack(">hhih", ApiKey.Produce, 3, 7, -1) + struct.pack(">hhii", -1, 1, 1000, -1),
    "Fetch v4 topics": struct.pack(">hhih", ApiKey.Fetch, 4, 7, -1) + struct.pack(">iiiibi", -1, 100, 1, 1000, 0, -1),
    "DescribeGroups v0 group name": struct.pack(">hhih", ApiKey.DescribeGroups, 0, 7, -1) + struct.pack(">ih", 1, -1),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_closes_only_that_connection(broker, steady, caplog, name):
    good = connect(broker.bootstrap)
    bad = connect(broker.bootstrap)
    bad.sendall(BAD_INPUTS[name])
    assert _closed_by_broker(bad), f"{name}: broker kept the connection open"
    bad.close()
    _cid, response = call(good, ApiKey.Metadata, 1, correlation_id=9, topics=[])
    assert response.brokers[0].node_id == 0
    good.close()
    assert "Closing connection" in caplog.text
    count = steady.finish()
    assert count > 0
    _check_everything_acknowledged_is_readable(broker.bootstrap, count)


@pytest.mark.parametrize("name", sorted(NULL_IN_NON_NULLABLE))
def test_null_in_a_non_nullable_field_closes_the_connection_without_an_error(broker, caplog, name):
    payload = NULL_IN_NON_NULLABLE[name]
    bad = connect(broker.bootstrap)
    bad.sendall(struct.pack(">i", len(payload)) + payload)
    assert _closed_by_broker(bad), f"{name}: broker kept the connection open"
    bad.close()
    assert "was serialized as null" in caplog.text
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text


def test_unsupported_api_versions_version_gets_v0_error_with_our_range(broker):
    from kafka.protocol.metadata import ApiVersionsRequest

    sock = connect(broker.bootstrap)
    body = ApiVersionsRequest(client_software_name="x", client_software_version="1")
    frame = bytearray(encode_request(ApiKey.ApiVersions, 4, body, correlation_id=5))
    struct.pack_into(">h", frame, 6, 99)  # claim version 99
    sock.sendall(frame)
    response = read_frame(sock)
    cid, error, count, key, low, high = struct.unpack(">ihihhh", response)
    assert (cid, error, count, key, low, high) == (5, 35, 1, 18, *advertised(ApiKey.ApiVersions))
    sock.close()


def test_pipelined_requests_are_answered_in_order(broker):
    from josefk.cli.kafka_messages import request_class

    sock = connect(broker.bootstrap)
    frames = b"".join(
        encode_request(ApiKey.Metadata if i % 2 else ApiKey.ApiVersions, 1,
                       request_class(ApiKey.Metadata if i % 2 else ApiKey.ApiVersions)(topics=[])
                       if i % 2 else request_class(ApiKey.ApiVersions)(), correlation_id=100 + i)
        for i in range(20))
    sock.sendall(frames)
    ids = [struct.unpack_from(">i", read_frame(sock))[0] for _ in range(20)]
    assert ids == list(range(100, 120))
    sock.close()


@pytest.mark.parametrize("count", [2**31 - 1, 200_000])
def test_a_topic_too_large_for_its_znode_is_refused_at_once(broker, count):
    """A CreateTopics for 2^31-1 partitions used to assign replicas for hours on the store
    executor, stalling every admin and controller request behind it (found by the network fuzzer)."""
    sock = connect(broker.bootstrap)
    cls = request_class(ApiKey.CreateTopics)
    topic = cls.CreatableTopic(name="huge", num_partitions=count, replication_factor=1, assignments=[], configs=[])
    _cid, response = call(sock, ApiKey.CreateTopics, 4, topics=[topic], timeout_ms=5000, validate_only=False)
    assert response.topics[0].error_code == ErrorCode.INVALID_PARTITIONS
    assert "znode" in response.topics[0].error_message
    create_topic(sock, "fits", 1)
    cp = request_class(ApiKey.CreatePartitions)
    _cid, response = call(sock, ApiKey.CreatePartitions, 1, timeout_ms=5000, validate_only=False, topics=[
        cp.CreatePartitionsTopic(name="fits", count=count, assignments=None)])
    assert response.results[0].error_code == ErrorCode.INVALID_PARTITIONS
    sock.close()
