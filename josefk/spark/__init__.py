"""PySpark data source "josefk": Kafka's Structured Streaming source and sink contract,
usable as spark.read/readStream/write/writeStream.format("josefk") after register(spark).

    from josefk.spark import register
    register(spark)
    df = spark.readStream.format("josefk").option("kafka.bootstrap.servers", "127.0.0.1:9092") \\
        .option("subscribe", "events").load()
"""

from __future__ import annotations

from typing import Any

from pyspark.sql.datasource import (
    DataSource,
    DataSourceReader,
    DataSourceStreamReader,
    DataSourceStreamWriter,
    DataSourceWriter,
)
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    IntegerType,
    LongType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

from josefk.spark.options import parse_sink_options, parse_source_options
from josefk.spark.sink import KafkaBatchWriter, KafkaStreamWriter, validate_write_schema
from josefk.spark.source import DataLossError, KafkaBatchReader, KafkaStreamReader

__all__ = ["KafkaDataSource", "DataLossError", "kafka_schema", "register"]

HEADERS_TYPE = ArrayType(StructType([StructField("key", StringType()), StructField("value", BinaryType())]))


def kafka_schema(include_headers: bool = False) -> StructType:
    """The Kafka source schema, as Spark's KafkaRecordToRowConverter defines it."""
    fields = [StructField("key", BinaryType()), StructField("value", BinaryType()),
              StructField("topic", StringType()), StructField("partition", IntegerType()),
              StructField("offset", LongType()), StructField("timestamp", TimestampType()),
              StructField("timestampType", IntegerType())]
    if include_headers:
        fields.append(StructField("headers", HEADERS_TYPE))
    return StructType(fields)


class KafkaDataSource(DataSource):
    """Reads and writes Kafka topics (josefk or any Kafka broker) through kafka-python."""

    @classmethod
    def name(cls) -> str:
        return "josefk"

    def schema(self) -> StructType:
        return kafka_schema(str(self.options.get("includeHeaders", "false")).lower() == "true")

    def reader(self, schema: StructType) -> DataSourceReader:
        return KafkaBatchReader(parse_source_options(self.options, streaming=False), schema)

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        return KafkaStreamReader(parse_source_options(self.options, streaming=True), schema)

    def writer(self, schema: StructType, overwrite: bool) -> DataSourceWriter:
        topic, config = parse_sink_options(self.options)
        validate_write_schema(schema, topic)
        return KafkaBatchWriter(topic, config)

    def streamWriter(self, schema: StructType, overwrite: bool) -> DataSourceStreamWriter:
        topic, config = parse_sink_options(self.options)
        validate_write_schema(schema, topic)
        return KafkaStreamWriter(topic, config)


def register(spark: Any) -> None:
    """Register format("josefk") in this SparkSession (and format("kafka") when the JVM
    forwarding shim is on the classpath, see josefk.spark.shim)."""
    manager = spark._jsparkSession.sessionState().dataSourceManager()
    if not manager.dataSourceExists(KafkaDataSource.name()):
        spark.dataSource.register(KafkaDataSource)
