"""End-to-end behaviour of one broker with real clients (kafka-python 3, confluent-kafka)
and with raw requests where a client hides the detail under test."""

from __future__ import annotations

import time

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import ConfigResource, ConfigResourceType, NewPartitions, NewTopic
from kafka.consumer.fetcher import ConsumerRecord

from harness.wire import call, connect, wait_until
from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.record_codec import Record, build_batch
from tests.conftest import RunningBroker
from tests.prerequisites import require_module


def _consume(bootstrap: str, topic: str, partition: int, count: int, offset: int = 0) -> list:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    tp = TopicPartition(topic, partition)
    consumer.assign([tp])
    consumer.seek(tp, offset)
    out: list = []
    deadline = time.time() + 20
    while len(out) < count and time.time() < deadline:
        for records in consumer.poll(timeout_ms=1000).values():
            out.extend(records)
    consumer.close()
    return out


@pytest.mark.parametrize("codec", [None, "gzip", "snappy", "lz4", "zstd"])
def test_produce_and_consume_keyed_records_with_headers(broker, codec):
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap, compression_type=codec)
    sent = [producer.send("events", key=b"k%d" % i, value=b"value-%d" % i, headers=[("h", b"%d" % i)])
            for i in range(50)]
    offsets = [f.get(timeout=10).offset for f in sent]
    producer.close()
    assert offsets == list(range(50))
    records = _consume(broker.bootstrap, "events", 0, 50)
    assert [(r.offset, r.key, r.value, r.headers) for r in records] == [
        (i, b"k%d" % i, b"value-%d" % i, [("h", b"%d" % i)]) for i in range(50)]
    assert all(r.timestamp > 0 for r in records)


def test_admin_create_describe_alter_partitions_delete(broker):
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    admin.create_topics([NewTopic("orders", 3, 1, topic_configs={"retention.ms": "3600000"})])
    with pytest.raises(Exception, match="TopicAlreadyExists"):
        admin.create_topics([NewTopic("orders", 3, 1)])
    described = admin.describe_topics(["orders"])[0]
    assert len(described["partitions"]) == 3
    configs = admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, "orders")])
    text = repr(configs)
    assert "retention.ms" in text and "3600000" in text
    admin.create_partitions({"orders": NewPartitions(5)})
    assert len(admin.describe_topics(["orders"])[0]["partitions"]) == 5
    admin.delete_topics(["orders"])
    assert "orders" not in admin.list_topics()
    admin.close()


def test_invalid_topic_config_is_rejected_with_invalid_config(broker):
    sock = connect(broker.bootstrap)
    cls = request_class(ApiKey.CreateTopics)
    topic = cls.CreatableTopic(name="bad", num_partitions=1, replication_factor=1, assignments=[],
                               configs=[cls.CreatableTopic.CreatableTopicConfig(name="segment.bytes", value="-3")])
    _cid, response = call(sock, ApiKey.CreateTopics, 4, topics=[topic], timeout_ms=1000, validate_only=False)
    assert response.topics[0].error_code == ErrorCode.INVALID_CONFIG
    assert "segment.bytes" in response.topics[0].error_message
    sock.close()


def test_list_offsets_earliest_latest_and_by_time(broker):
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
    base = int(time.time() * 1000) - 100_000
    for i in range(10):
        producer.send("timed", value=b"%d" % i, timestamp_ms=base + i * 1000)
    producer.flush()
    producer.close()
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap)
    tp = TopicPartition("timed", 0)
    assert consumer.beginning_offsets([tp]) == {tp: 0}
    assert consumer.end_offsets([tp]) == {tp: 10}
    found = consumer.offsets_for_times({tp: base + 4500})[tp]
    assert found is not None and found.offset <= 5 and found.timestamp >= base + 4000
    assert consumer.offsets_for_times({tp: base + 10**7})[tp] is None
    consumer.close()


def test_acks_zero_gets_no_response_but_is_written(broker):
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap, acks=0)
    for i in range(20):
        producer.send("fire-and-forget", value=b"%d" % i)
    producer.flush()
    producer.close()
    assert [r.value for r in _consume(broker.bootstrap, "fire-and-forget", 0, 20)] == [b"%d" % i for i in range(20)]


def _produce_raw(sock, topic: str, batch: bytes, correlation_id: int):
    cls = request_class(ApiKey.Produce)
    data = cls.TopicProduceData(name=topic, partition_data=[
        cls.TopicProduceData.PartitionProduceData(index=0, records=batch)])
    _cid, response = call(sock, ApiKey.Produce, 8, correlation_id=correlation_id, transactional_id=None,
                          acks=-1, timeout_ms=5000, topic_data=[data])
    return response.responses[0].partition_responses[0]


def test_idempotent_duplicate_gets_original_offset_and_gap_is_rejected(broker):
    sock = connect(broker.bootstrap)
    _cid, pid = call(sock, ApiKey.InitProducerId, 1, transactional_id=None, transaction_timeout_ms=60000)
    assert pid.error_code == 0 and pid.producer_id >= 0
    def leader_ready() -> bool:  # auto-creation is asynchronous, as in Kafka (LEADER_NOT_AVAILABLE first)
        _cid, meta = call(sock, ApiKey.Metadata, 4, allow_auto_topic_creation=True,
                          topics=[request_class(ApiKey.Metadata).MetadataRequestTopic(name="idem")])
        return meta.topics[0].error_code == 0 and meta.topics[0].partitions[0].error_code == 0

    wait_until(leader_ready, "the auto-created topic has a leader")
    now = int(time.time() * 1000)

    def batch(seq: int, n: int) -> bytes:
        return build_batch([Record(i, now, None, b"x%d" % (seq + i)) for i in range(n)],
                           producer_id=pid.producer_id, producer_epoch=pid.producer_epoch, base_sequence=seq)

    first = _produce_raw(sock, "idem", batch(0, 3), 10)
    second = _produce_raw(sock, "idem", batch(3, 2), 11)
    duplicate = _produce_raw(sock, "idem", batch(0, 3), 12)
    gap = _produce_raw(sock, "idem", batch(9, 1), 13)
    assert (first.error_code, first.base_offset) == (0, 0)
    assert (second.error_code, second.base_offset) == (0, 3)
    assert (duplicate.error_code, duplicate.base_offset) == (0, 0)
    assert gap.error_code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    sock.close()
    assert [r.value for r in _consume(broker.bootstrap, "idem", 0, 5)] == [b"x%d" % i for i in range(5)]


def test_data_survives_restart(tmp_path):
    first = RunningBroker(tmp_path / "logs")
    producer = KafkaProducer(bootstrap_servers=first.bootstrap, acks="all")
    for i in range(100):
        producer.send("durable", value=b"%d" % i)
    producer.flush()
    producer.close()
    first.stop()
    second = RunningBroker(tmp_path / "logs")
    try:
        assert [r.value for r in _consume(second.bootstrap, "durable", 0, 100)] == [b"%d" % i for i in range(100)]
        producer = KafkaProducer(bootstrap_servers=second.bootstrap)
        assert producer.send("durable", value=b"after").get(timeout=10).offset == 100
        producer.close()
    finally:
        second.stop()


def test_long_poll_fetch_waits_for_data_then_returns(broker):
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
    producer.send("poll", value=b"first").get(timeout=10)
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, fetch_max_wait_ms=3000, fetch_min_bytes=1)
    tp = TopicPartition("poll", 0)
    consumer.assign([tp])
    consumer.seek(tp, 1)
    assert consumer.poll(timeout_ms=500) == {}
    producer.send("poll", value=b"second").get(timeout=10)
    start = time.time()
    got: list[ConsumerRecord] = []
    while not got and time.time() - start < 10:
        got = consumer.poll(timeout_ms=5000).get(tp, [])
    assert [r.value for r in got] == [b"second"]
    assert time.time() - start < 2.5, "the waiting fetch was not woken by the append"
    consumer.close()
    producer.close()


def test_confluent_kafka_round_trip(broker):
    confluent_kafka = require_module("confluent_kafka")
    producer = confluent_kafka.Producer({"bootstrap.servers": broker.bootstrap, "enable.idempotence": True,
                                         "compression.type": "lz4"})
    for i in range(100):
        producer.produce("librdkafka", key=b"%d" % i, value=b"v%d" % i, headers=[("n", b"%d" % i)])
    assert producer.flush(20) == 0
    consumer = confluent_kafka.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "g",
                                         "enable.auto.commit": False})
    consumer.assign([confluent_kafka.TopicPartition("librdkafka", 0, 0)])
    got: list[tuple[int | None, bytes | None, bytes | None, object]] = []
    deadline = time.time() + 20
    while len(got) < 100 and time.time() < deadline:
        msg = consumer.poll(1.0)
        if msg is not None and msg.error() is None:
            got.append((msg.offset(), msg.key(), msg.value(), msg.headers()))
    consumer.close()
    assert got == [(i, b"%d" % i, b"v%d" % i, [("n", b"%d" % i)]) for i in range(100)]


def test_topic_configs_alter_incremental_and_delete_records(broker):
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    admin.create_topics([NewTopic("tuned", 1, 1)])
    sock = connect(broker.bootstrap)
    cls = request_class(ApiKey.IncrementalAlterConfigs)
    resource = cls.AlterConfigsResource(resource_type=2, resource_name="tuned", configs=[
        cls.AlterConfigsResource.AlterableConfig(name="retention.ms", config_operation=0, value="1234"),
        cls.AlterConfigsResource.AlterableConfig(name="cleanup.policy", config_operation=2, value="compact")])
    _cid, response = call(sock, ApiKey.IncrementalAlterConfigs, 1, resources=[resource], validate_only=False)
    assert response.responses[0].error_code == 0
    bad = cls.AlterConfigsResource(resource_type=2, resource_name="tuned", configs=[
        cls.AlterConfigsResource.AlterableConfig(name="retention.ms", config_operation=0, value="soon")])
    _cid, response = call(sock, ApiKey.IncrementalAlterConfigs, 1, resources=[bad], validate_only=False)
    assert response.responses[0].error_code == ErrorCode.INVALID_CONFIG
    configs = repr(admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, "tuned")]))
    assert "1234" in configs and "delete,compact" in configs
    assert broker.server.replica_manager.partitions[("tuned", 0)].log.config.retention_ms == 1234

    producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
    for i in range(10):
        producer.send("tuned", key=b"%d" % i, value=b"%d" % i).get(timeout=10)
    producer.close()
    dcls = request_class(ApiKey.DeleteRecords)
    topic = dcls.DeleteRecordsTopic(name="tuned", partitions=[
        dcls.DeleteRecordsTopic.DeleteRecordsPartition(partition_index=0, offset=4)])
    _cid, response = call(sock, ApiKey.DeleteRecords, 1, topics=[topic], timeout_ms=1000)
    assert response.topics[0].partitions[0].low_watermark == 4
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap)
    tp = TopicPartition("tuned", 0)
    assert consumer.beginning_offsets([tp]) == {tp: 4}
    consumer.close()
    sock.close()
    admin.close()
