"""The operating system's view of the broker process that Kafka exports besides its own
meters: KafkaServer's linux-disk-read-bytes and linux-disk-write-bytes (Kafka's
LinuxIoMetricsCollector reads them from /proc/self/io; the JMX exporter names them
kafka_server_kafkaserver_linux_disk_read_bytes and _write_bytes). They are absent where
/proc/self/io cannot be read, as Kafka registers them only where it can.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

PROC_IO = Path("/proc/self/io")


def read_io(path: Path = PROC_IO) -> dict[str, int] | None:
    """/proc/<pid>/io's fields (read_bytes, write_bytes: what reached the storage layer), or
    None where it cannot be read."""
    try:
        text = path.read_text()
    except OSError:
        return None
    fields = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if value.strip().isdigit():
            fields[key.strip()] = int(value)
    return fields


class OsCollector(Collector):
    def __init__(self, path: Path = PROC_IO) -> None:
        self.path = path

    def collect(self) -> Iterator[Metric]:
        io = read_io(self.path)
        if io is None:
            return
        for field, name in (("read_bytes", "read"), ("write_bytes", "write")):
            if field in io:
                yield GaugeMetricFamily(f"kafka_server_kafkaserver_linux_disk_{name}_bytes",
                                        f"Bytes the process {name} from storage, from /proc/self/io "
                                        f"(kafka.server:type=KafkaServer,name=linux-disk-{name}-bytes)",
                                        value=io[field])
