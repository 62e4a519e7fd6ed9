"""Client quotas end to end: a real broker, real clients (confluent-kafka), quotas set
with AlterClientQuotas; the measured rate stays near the quota and the client is told
throttle_time_ms. A quota altered on one broker of a ZooKeeper cluster applies on another."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from confluent_kafka import Consumer, Producer

from harness.josefk import BrokerProcess
from harness.wire import call, connect, create_topic, encode_request, read_frame, wait_until
from josefk.cli.kafka_messages import request_class, response_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.record_codec import Record, build_batch
from tests.conftest import RunningBroker

QUOTA = 200 * 1024  # bytes per second
RUN_S = 5.0
# Kafka measures a rate over quota.window.num windows (11 by default) and lets a first burst of
# (num - 1) windows' worth through; 3 windows of 1 s keep that burst short of the 5 s measured.
WINDOWS = {"quota.window.num": "3", "quota.window.size.seconds": "1"}


@pytest.fixture
def qbroker(tmp_path) -> Iterator[RunningBroker]:
    running = RunningBroker(tmp_path / "logs", WINDOWS)
    yield running
    running.stop()


def alter_quota(bootstrap: str, entity: list[tuple[str, str | None]], ops: dict[str, float | None]) -> None:
    cls = request_class(ApiKey.AlterClientQuotas)
    with connect(bootstrap) as sock:
        _, response = call(sock, ApiKey.AlterClientQuotas, 1, validate_only=False, entries=[cls.EntryData(
            entity=[cls.EntryData.EntityData(entity_type=t, entity_name=n) for t, n in entity],
            ops=[cls.EntryData.OpData(key=k, value=v or 0.0, remove=v is None) for k, v in ops.items()])])
    assert [e.error_code for e in response.entries] == [0], response


def describe_quotas(bootstrap: str) -> dict[tuple, dict[str, float]]:
    cls = request_class(ApiKey.DescribeClientQuotas)
    with connect(bootstrap) as sock:
        _, response = call(sock, ApiKey.DescribeClientQuotas, 1, strict=False,
                           components=[cls.ComponentData(entity_type="client-id", match_type=2, match=None)])
    assert response.error_code == 0, response
    return {tuple((e.entity_type, e.entity_name) for e in entry.entity): {v.key: v.value for v in entry.values}
            for entry in response.entries}


def _rate_after_first_throttle(deliveries: list[tuple[float, int]], throttled_at: float) -> float:
    """Bytes per second delivered in the RUN_S seconds after the first throttle."""
    window = [n for t, n in deliveries if throttled_at <= t < throttled_at + RUN_S]
    return sum(window) / RUN_S


@pytest.mark.integration
def test_producer_byte_rate_holds_a_producer_to_its_quota(qbroker) -> None:
    broker = qbroker
    with connect(broker.bootstrap) as sock:
        create_topic(sock, "q-produce", 1)
    alter_quota(broker.bootstrap, [("client-id", "slow-producer")], {"producer_byte_rate": QUOTA})
    assert describe_quotas(broker.bootstrap) == {(("client-id", "slow-producer"),): {"producer_byte_rate": QUOTA}}
    throttles: list[tuple[float, int]] = []
    deliveries: list[tuple[float, int]] = []

    def delivered(err, msg) -> None:
        assert err is None, err
        deliveries.append((time.monotonic(), len(msg.value())))

    producer = Producer({"bootstrap.servers": broker.bootstrap, "client.id": "slow-producer", "linger.ms": 5,
                         "batch.size": 16384, "queue.buffering.max.messages": 200,
                         "throttle_cb": lambda event: throttles.append((time.monotonic(), event.throttle_time))})
    value = b"x" * 1000
    deadline = time.monotonic() + 60

    def measured() -> bool:
        return bool(throttles) and time.monotonic() > throttles[0][0] + RUN_S

    while not measured() and time.monotonic() < deadline:
        try:
            producer.produce("q-produce", value, on_delivery=delivered)
        except BufferError:
            producer.poll(0.05)
        producer.poll(0)
    producer.flush(30)
    assert throttles and max(t for _, t in throttles) > 0, "never throttled"
    rate = _rate_after_first_throttle(deliveries, throttles[0][0])
    assert 0.3 * QUOTA < rate < 1.3 * QUOTA, rate


@pytest.mark.integration
def test_consumer_byte_rate_holds_a_consumer_to_its_quota(qbroker) -> None:
    broker = qbroker
    with connect(broker.bootstrap) as sock:
        create_topic(sock, "q-fetch", 1)
    producer = Producer({"bootstrap.servers": broker.bootstrap, "client.id": "filler", "linger.ms": 20,
                         "batch.size": 16384})  # batches far below what one quota window lets through
    for _ in range(6000):
        producer.produce("q-fetch", b"y" * 1000)
        producer.poll(0)
    assert producer.flush(30) == 0
    alter_quota(broker.bootstrap, [("client-id", "slow-consumer")], {"consumer_byte_rate": QUOTA})
    throttles: list[tuple[float, int]] = []
    deliveries: list[tuple[float, int]] = []
    consumer = Consumer({"bootstrap.servers": broker.bootstrap, "client.id": "slow-consumer", "group.id": "q",
                         "auto.offset.reset": "earliest", "enable.auto.commit": False,
                         "throttle_cb": lambda event: throttles.append((time.monotonic(), event.throttle_time))})
    try:
        consumer.subscribe(["q-fetch"])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (throttles and time.monotonic() > throttles[0][0] + RUN_S):
            msg = consumer.poll(0.1)
            if msg is not None and msg.error() is None:
                deliveries.append((time.monotonic(), len(msg.value() or b"")))
    finally:
        consumer.close()
    assert throttles and max(t for _, t in throttles) > 0, "never throttled"
    assert sum(n for _, n in deliveries) < 6_000_000, "ran out of records to measure"
    rate = _rate_after_first_throttle(deliveries, throttles[0][0])
    assert 0.3 * QUOTA < rate < 1.3 * QUOTA, rate


@pytest.mark.cluster
def test_a_quota_altered_on_one_broker_applies_on_the_other(zookeeper, tmp_path) -> None:
    brokers = []
    try:
        for broker_id in (1, 2):
            brokers.append(BrokerProcess(tmp_path / f"b{broker_id}", overrides={
                "broker.id": str(broker_id), "zookeeper.connect": zookeeper.connect, **WINDOWS}))
        # The quota counts the request's bytes whichever broker leads the partitions.
        alter_quota(brokers[0].bootstrap, [("user", None), ("client-id", "c2")], {"producer_byte_rate": 1000})
        assert describe_quotas(brokers[1].bootstrap) == {
            (("user", None), ("client-id", "c2")): {"producer_byte_rate": 1000.0}}
        cls = request_class(ApiKey.Produce)
        records = build_batch([Record(offset=0, timestamp=0, key=None, value=b"z" * 5000)])

        def throttled_on_broker_2() -> bool:
            """A 5 KB produce from client c2 is over 1000 B/s measured over 2 s: broker 2 throttles it."""
            body = cls(acks=1, timeout_ms=5000, transactional_id=None, topic_data=[cls.TopicProduceData(
                name="q-cluster", partition_data=[cls.TopicProduceData.PartitionProduceData(index=p, records=records)
                                                  for p in (0, 1)])])
            with connect(brokers[1].bootstrap) as sock:
                sock.sendall(encode_request(ApiKey.Produce, 9, body, client_id="c2"))
                frame = read_frame(sock)
            response = response_class(ApiKey.Produce).decode(frame[5:], version=9)
            return response.throttle_time_ms > 0

        wait_until(throttled_on_broker_2, "broker 2 throttles client c2", timeout=15)
    finally:
        for b in brokers:
            b.stop()


@pytest.mark.integration
def test_request_percentage_throttles_any_api(broker) -> None:
    """A request quota of 0.001% of a handler: a few Metadata requests are over it, and the
    answer (Metadata v12) carries the throttle time; follow-up requests still get answers."""
    alter_quota(broker.bootstrap, [("user", None)], {"request_percentage": 0.001})
    with connect(broker.bootstrap) as sock:
        def throttled() -> bool:
            _, response = call(sock, ApiKey.Metadata, 12, topics=None, allow_auto_topic_creation=False,
                               include_topic_authorized_operations=False)
            return response.throttle_time_ms > 0

        wait_until(throttled, "a Metadata answer with throttle_time_ms", timeout=15)
        # bounded by one quota window (1 s): the connection is served again after it
        _, response = call(sock, ApiKey.Metadata, 12, topics=None, allow_auto_topic_creation=False,
                           include_topic_authorized_operations=False)
        assert 0 <= response.throttle_time_ms <= 1000
