"""A restarted broker loads its logs with their topics' config overrides (Kafka's LogManager
gets them at start-up). Found by the fault-injection suite: a restarted leader ran on the
defaults (min.insync.replicas=1) and acknowledged acks=all writes with an ISR of one."""

from __future__ import annotations

import pytest
from kafka import KafkaAdminClient, KafkaProducer
from kafka.admin import NewTopic
from kafka.errors import NotEnoughReplicasError

from harness.josefk import BrokerProcess

pytestmark = pytest.mark.integration


def _produce(bootstrap: str) -> None:
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", retries=0, request_timeout_ms=10000)
    try:
        producer.send("guarded", value=b"x").get(timeout=20)
    finally:
        producer.close()


def test_min_insync_replicas_survives_a_restart(tmp_path):
    broker = BrokerProcess(tmp_path / "logs")
    try:
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        admin.create_topics([NewTopic("guarded", 1, 1, topic_configs={"min.insync.replicas": "2"})])
        admin.close()
        with pytest.raises(NotEnoughReplicasError):
            _produce(broker.bootstrap)
        assert broker.stop() == 0
        broker = BrokerProcess(tmp_path / "logs", port=broker.port)
        with pytest.raises(NotEnoughReplicasError):
            _produce(broker.bootstrap)
    finally:
        broker.stop()
