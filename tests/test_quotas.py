"""Client quotas end to end: a real broker, real clients (confluent-kafka), quotas set
with AlterClientQuotas; the measured rate stays near the quota and the client is told
throttle_time_ms. A quota altered on one broker of a ZooKeeper cluster applies on another."""

from __future__ import annotations

import time

import pytest
from confluent_kafka import Consumer, Producer

from harness.josefk import BrokerProcess
from harness.wire import call, connect, create_topic, wait_until
from josefk.protocol.apis import ApiKey, request_class
from josefk.protocol.record_codec import Record, build_batch

QUOTA = 200 * 1024  # bytes per second
RUN_S = 5.0


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
def test_producer_byte_rate_holds_a_producer_to_its_quota(broker) -> None:
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
