"""Produce three records and read them back through josefk, with kafka-python."""

from kafka import KafkaConsumer, KafkaProducer


def test_produce_then_consume(josefk_broker: str) -> None:
    producer = KafkaProducer(bootstrap_servers=josefk_broker)
    for i in range(3):
        producer.send("greetings", key=b"k", value=f"hello {i}".encode())
    producer.flush()
    producer.close()

    consumer = KafkaConsumer("greetings", bootstrap_servers=josefk_broker, group_id="example",
                             auto_offset_reset="earliest", consumer_timeout_ms=20_000)
    values = []
    for record in consumer:
        values.append(record.value.decode())
        if len(values) == 3:
            break
    consumer.close()
    assert values == ["hello 0", "hello 1", "hello 2"]
