"""Kafka's sink contract: rows with topic/key/value/headers/partition columns produced by a
kafka-python KafkaProducer (idempotent, acks=all, like the Java producer's defaults)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pyspark.sql import Row
from pyspark.sql.datasource import DataSourceStreamWriter, DataSourceWriter, WriterCommitMessage
from pyspark.sql.types import ArrayType, BinaryType, IntegerType, StringType, StructType


@dataclass
class WrittenCount(WriterCommitMessage):
    """How many records one task wrote."""

    records: int


def validate_write_schema(schema: StructType, topic: str | None) -> None:
    """Spark's KafkaWriter checks: value required, topic column or option, typed key/headers/partition."""
    fields = {f.name.lower(): f.dataType for f in schema.fields}
    if "value" not in fields:
        raise ValueError("Required attribute 'value' not found")
    for name in ("key", "value"):
        if name in fields and not isinstance(fields[name], (StringType, BinaryType)):
            raise ValueError(f"{name} attribute type must be a string or binary")
    if topic is None:
        if "topic" not in fields:
            raise ValueError("topic option required when no 'topic' attribute is present. Use the topic option "
                             "for setting a topic.")
        if not isinstance(fields["topic"], StringType):
            raise ValueError("topic attribute type must be a string")
    if "partition" in fields and not isinstance(fields["partition"], IntegerType):
        raise ValueError("partition attribute type must be an int")
    if "headers" in fields and not isinstance(fields["headers"], ArrayType):
        raise ValueError("headers attribute type must be array<struct<key:string,value:binary>>")


def _bytes(v: Any) -> bytes | None:
    if v is None or isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode()
    return bytes(v)


def write_rows(rows: Iterator[Row], topic: str | None, config: dict[str, Any]) -> WrittenCount:
    """Produce every row, then flush; the task fails if any record failed."""
    from kafka import KafkaProducer

    producer = KafkaProducer(**config)
    errors: list[BaseException] = []
    count = 0
    try:
        for row in rows:
            d = row.asDict()
            dest = topic or d.get("topic")
            if dest is None:
                raise ValueError("null topic present in the data. Use the topic option for setting a topic.")
            headers = [(h["key"], _bytes(h["value"])) for h in d.get("headers") or []]
            future = producer.send(dest, value=_bytes(d.get("value")), key=_bytes(d.get("key")),
                                   headers=headers or None, partition=d.get("partition"))
            future.add_errback(errors.append)
            count += 1
            if errors:
                break
        producer.flush()
    finally:
        producer.close()
    if errors:
        raise RuntimeError(f"Writing to Kafka failed: {errors[0]!r}") from errors[0]
    return WrittenCount(count)


class KafkaBatchWriter(DataSourceWriter):
    """df.write.format("josefk")."""

    def __init__(self, topic: str | None, config: dict[str, Any]) -> None:
        self.topic, self.config = topic, config

    def write(self, iterator: Iterator[Row]) -> WriterCommitMessage:
        return write_rows(iterator, self.topic, self.config)


class KafkaStreamWriter(DataSourceStreamWriter):
    """df.writeStream.format("josefk"): at-least-once, as Spark's Kafka sink."""

    def __init__(self, topic: str | None, config: dict[str, Any]) -> None:
        self.topic, self.config = topic, config

    def write(self, iterator: Iterator[Row]) -> WriterCommitMessage:
        return write_rows(iterator, self.topic, self.config)

    def commit(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:
        pass

    def abort(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:
        pass
