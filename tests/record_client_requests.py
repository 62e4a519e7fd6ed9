"""Record the request frames real clients send, for tests/test_recorded_requests.py.

    .venv/bin/python tests/record_client_requests.py

Starts a broker behind a recording TCP proxy on 127.0.0.1, runs confluent-kafka
(librdkafka) and kafka-python through it (produce with each codec, consume, admin), and
writes every client->broker frame to tests/data/recorded_requests.json.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
from pathlib import Path
from tempfile import TemporaryDirectory

from tests.conftest import RunningBroker

OUT = Path(__file__).parent / "data" / "recorded_requests.json"


class RecordingProxy:
    def __init__(self, client: str) -> None:
        self.upstream: tuple[str, int] | None = None
        self.client = client
        self.frames: list[dict] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            assert self.upstream is not None, "set before the first client connects"
            up = socket.create_connection(self.upstream)
            threading.Thread(target=self._pump, args=(conn, up, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(up, conn, False), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, record: bool) -> None:
        buf = b""
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if not data:
                dst.close()
                return
            dst.sendall(data)
            if not record:
                continue
            buf += data
            while len(buf) >= 4 and len(buf) - 4 >= struct.unpack_from(">i", buf)[0]:
                size = struct.unpack_from(">i", buf)[0]
                payload, buf = buf[4 : 4 + size], buf[4 + size :]
                api_key, version = struct.unpack_from(">hh", payload)
                self.frames.append({"client": self.client, "api_key": api_key, "version": version,
                                    "hex": payload.hex()})


def run_confluent(bootstrap: str) -> None:
    import confluent_kafka
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic("rec-admin", 2, 1)])["rec-admin"].result(10)
    for codec in ("none", "gzip", "snappy", "lz4", "zstd"):
        producer = confluent_kafka.Producer({"bootstrap.servers": bootstrap, "compression.type": codec,
                                             "enable.idempotence": True})
        producer.produce("rec-confluent", key=b"k", value=b"v" * 100, headers=[("h", b"1")])
        producer.flush(10)
    consumer = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": "rec",
                                         "auto.offset.reset": "earliest"})
    consumer.assign([confluent_kafka.TopicPartition("rec-confluent", 0, 0)])
    consumer.consume(5, timeout=5)
    consumer.close()


def run_kafka_python(bootstrap: str) -> None:
    from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
    from kafka.admin import NewTopic

    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    admin.create_topics([NewTopic("rec-kp-admin", 1, 1)])
    admin.close()
    for codec in (None, "gzip", "lz4", "zstd"):
        producer = KafkaProducer(bootstrap_servers=bootstrap, compression_type=codec)
        producer.send("rec-kp", key=b"k", value=b"v" * 100, headers=[("h", b"1")]).get(10)
        producer.close()
    consumer = KafkaConsumer(bootstrap_servers=bootstrap)
    tp = TopicPartition("rec-kp", 0)
    consumer.assign([tp])
    consumer.seek(tp, 0)
    consumer.poll(timeout_ms=3000)
    consumer.close()


def main() -> None:
    frames = []
    for client, runner in (("confluent-kafka", run_confluent), ("kafka-python-3", run_kafka_python)):
        proxy = RecordingProxy(client)
        with TemporaryDirectory() as tmp:
            # Clients reconnect to the advertised address, so advertise the proxy.
            broker = RunningBroker(Path(tmp), {"advertised.listeners": f"PLAINTEXT://127.0.0.1:{proxy.port}"})
            proxy.upstream = ("127.0.0.1", broker.server.port)
            try:
                runner(f"127.0.0.1:{proxy.port}")
            finally:
                proxy.listener.close()
                broker.stop()
        frames.extend(proxy.frames)
    seen = set()
    unique = []
    for f in frames:
        key = (f["client"], f["api_key"], f["version"])
        if key not in seen or f["api_key"] == 0:
            seen.add(key)
            unique.append(f)
    OUT.write_text(json.dumps(unique, indent=1) + "\n")
    print(f"recorded {len(unique)} frames to {OUT}")


if __name__ == "__main__":
    main()
