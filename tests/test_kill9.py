"""Every acknowledged write survives kill -9 of the broker process."""

from __future__ import annotations

import threading
import time

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.errors import KafkaError

from harness.josefk import BrokerProcess

pytestmark = pytest.mark.integration


def _produce_until_killed(bootstrap: str, topic: str, acks, acked: list, stop: threading.Event) -> None:
    # delivery_timeout_ms bounds how long a batch sent to the killed broker stays pending, so
    # close() (which flushes first, and raises if that times out) finishes instead of raising.
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks=acks, linger_ms=2, retries=0,
                             enable_idempotence=False, request_timeout_ms=3000, max_block_ms=3000,
                             delivery_timeout_ms=4000)
    i = 0
    while not stop.is_set():
        value = b"%s-%d" % (topic.encode(), i)
        try:
            meta = producer.send(topic, value=value).get(timeout=5)
        except KafkaError:
            break
        acked.append((meta.offset, value))
        i += 1
    producer.close(timeout=15)


@pytest.mark.parametrize("acks", [1, "all"])
def test_acknowledged_records_survive_kill_minus_9(tmp_path, acks):
    broker = BrokerProcess(tmp_path)
    topic = f"kill-acks-{acks}"
    acked: list = []
    stop = threading.Event()
    worker = threading.Thread(target=_produce_until_killed, args=(broker.bootstrap, topic, acks, acked, stop))
    worker.start()
    deadline = time.time() + 20
    while len(acked) < 300 and time.time() < deadline:
        time.sleep(0.05)
    broker.kill()
    stop.set()
    worker.join(timeout=30)
    assert len(acked) >= 300
    restarted = BrokerProcess(tmp_path, port=broker.port)
    try:
        consumer = KafkaConsumer(bootstrap_servers=restarted.bootstrap, enable_auto_commit=False)
        tp = TopicPartition(topic, 0)
        consumer.assign([tp])
        consumer.seek(tp, 0)
        stored: dict[int, bytes] = {}
        last = acked[-1][0]
        deadline = time.time() + 30
        while (not stored or max(stored) < last) and time.time() < deadline:
            for records in consumer.poll(timeout_ms=1000).values():
                stored.update((r.offset, r.value) for r in records)
        consumer.close()
        missing = [(o, v) for o, v in acked if stored.get(o) != v]
        assert not missing, f"{len(missing)} acknowledged records lost, first {missing[:3]}"
    finally:
        restarted.stop()
