"""The check that fails a test leaving a Kafka client running catches one (tests/client_leaks.py).

The clients here point at 127.0.0.1:1, where nothing listens: they only get refused connections."""

from __future__ import annotations

import confluent_kafka
import kafka
import pytest

from tests.client_leaks import client_threads, leaked_since

pytestmark = pytest.mark.integration  # librdkafka connects natively, past the unit tests' socket guard

NOWHERE = "127.0.0.1:1"


def test_a_librdkafka_producer_left_running_is_caught_and_a_destroyed_one_is_not() -> None:
    before = client_threads()
    producer = confluent_kafka.Producer({"bootstrap.servers": NOWHERE})
    leaked = leaked_since(before, grace=0.5)
    assert any(name.startswith("librdkafka rdk:main") for name in leaked), leaked
    del producer
    assert leaked_since(before) == []


def test_a_client_kept_only_by_a_reference_cycle_is_collected_not_reported() -> None:
    before = client_threads()
    producer = confluent_kafka.Producer({"bootstrap.servers": NOWHERE})
    holder: dict[str, object] = {"producer": producer}
    holder["self"] = holder
    del producer, holder
    assert leaked_since(before) == []


def test_a_kafka_python_sender_thread_is_caught_until_its_producer_is_closed() -> None:
    before = client_threads()
    producer = kafka.KafkaProducer(bootstrap_servers=NOWHERE, api_version=(2, 5))
    try:
        leaked = leaked_since(before, grace=0.5)
        assert any(name.startswith("kafka-python ") and "-network-thread" in name for name in leaked), leaked
    finally:
        producer.close(timeout=10)
    assert leaked_since(before) == []
