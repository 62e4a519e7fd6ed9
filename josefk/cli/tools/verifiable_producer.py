"""`josefk verifiable-producer`: Kafka's kafka-verifiable-producer.sh (VerifiableProducer).

Produces increasing integers to a topic and prints a JSON event for every send's outcome, so a
test harness sees which messages were acknowledged and which were not: startup_complete,
producer_send_success / producer_send_error per message, shutdown_complete once the producer is
closed, and tool_data with the counts. As in Kafka's tool, retries are off (a failed send is
reported, not retried), and SIGTERM or Ctrl-C stops producing and still flushes and reports.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from typing import Any

from kafka import KafkaProducer

from josefk.cli.tools.common import (
    ToolError,
    error_text,
    java_exception,
    kafka_client,
    load_properties,
    parser,
    quiet_client_logs,
)
from josefk.cli.tools.events import JsonEvents

CONNECTION = "HOST1:PORT1[,HOST2:PORT2[...]]"
INVALID_TOPIC = "org.apache.kafka.common.errors.InvalidTopicException"


def build_parser() -> argparse.ArgumentParser:
    p = parser("verifiable-producer", "This tool produces increasing integers to the specified topic and prints "
               "JSON metadata to stdout on each \"send\" request, making externally visible which messages have "
               "been acked and which have not (kafka-verifiable-producer.sh).")
    p.add_argument("--topic", required=True, metavar="TOPIC", help="Produce messages to this topic.")
    p.add_argument("--max-messages", type=int, default=-1, metavar="MAX-MESSAGES",
                   help="Produce this many messages. If -1, produce messages until the process is killed "
                        "externally. (default: -1)")
    p.add_argument("--throughput", type=int, default=-1, metavar="THROUGHPUT",
                   help="If set >= 0, throttle maximum message throughput to *approximately* THROUGHPUT "
                        "messages/sec. (default: -1)")
    p.add_argument("--acks", type=int, default=-1, choices=(0, 1, -1), metavar="ACKS",
                   help="Acks required on each produced message. See Kafka docs on acks for details. "
                        "(default: -1)")
    p.add_argument("--producer.config", dest="producer_config", metavar="CONFIG_FILE",
                   help="Producer config properties file.")
    p.add_argument("--message-create-time", type=int, default=-1, metavar="CREATETIME",
                   help="Send messages with creation time starting at the arguments value, in milliseconds "
                        "since epoch (default: -1)")
    p.add_argument("--value-prefix", type=int, metavar="VALUE-PREFIX",
                   help="If specified, each produced value will have this prefix with a dot separator")
    p.add_argument("--repeating-keys", type=int, metavar="REPEATING-KEYS",
                   help="If specified, each produced record will have a key starting at 0 increment by 1 up to "
                        "the number specified (exclusive), then the key is set to 0 again")
    connection = p.add_argument_group("Connection Group", "Group of arguments for connection to brokers")
    servers = connection.add_mutually_exclusive_group(required=True)
    servers.add_argument("--bootstrap-server", metavar=CONNECTION,
                         help="REQUIRED: The server(s) to connect to. Comma-separated list of Kafka brokers in "
                              "the form HOST1:PORT1,HOST2:PORT2,...")
    servers.add_argument("--broker-list", metavar=CONNECTION,
                         help="DEPRECATED, use --bootstrap-server instead; ignored if --bootstrap-server is "
                              "specified. Comma-separated list of Kafka brokers in the form HOST1:PORT1,...")
    return p


class Throttler:
    """Kafka's ThroughputThrottler: keep the send rate near `throughput` messages a second
    (negative: unlimited; 0: send nothing more until stopped)."""

    def __init__(self, throughput: int, stop: threading.Event) -> None:
        self.throughput = throughput
        self.stop = stop
        self.start = time.monotonic()

    def wait(self, sent: int) -> None:
        if self.throughput < 0:
            return
        if self.throughput == 0:
            self.stop.wait()
            return
        ahead = sent / self.throughput - (time.monotonic() - self.start)
        if ahead > 0:
            self.stop.wait(ahead)


class VerifiableProducer:
    def __init__(self, producer: Any, args: argparse.Namespace, events: JsonEvents) -> None:
        self.producer = producer
        self.args = args
        self.events = events
        self.sent = 0
        self.acked = 0
        self.stop = threading.Event()
        self.create_time = args.message_create_time if args.message_create_time != -1 else None
        self.started_ms = int(time.time() * 1000)
        self.key_counter = 0

    def key(self) -> str | None:
        if self.args.repeating_keys is None:
            return None
        key = str(self.key_counter)
        self.key_counter += 1
        if self.key_counter == self.args.repeating_keys:
            self.key_counter = 0
        return key

    def value(self, i: int) -> str:
        return f"{self.args.value_prefix}.{i}" if self.args.value_prefix is not None else str(i)

    def send(self, key: str | None, value: str) -> None:
        timestamp = self.create_time
        if self.create_time is not None:
            self.create_time += int(time.time() * 1000) - self.started_ms  # as Kafka's tool advances it
        self.sent += 1
        try:
            future = self.producer.send(self.args.topic, key=None if key is None else key.encode(),
                                        value=value.encode(), timestamp_ms=timestamp)
        except Exception as e:  # noqa: BLE001 - a failed send is an event, not the end
            self._failed(key, value, e)
            return
        future.add_callback(self._succeeded, key, value)
        future.add_errback(lambda e: self._failed(key, value, e))

    def _succeeded(self, key: str | None, value: str, metadata: Any) -> None:
        self.acked += 1
        self.events.emit("producer_send_success", key=key, value=value, offset=metadata.offset,
                         topic=metadata.topic, partition=metadata.partition)

    def _failed(self, key: str | None, value: str, error: BaseException) -> None:
        # kafka-python rejects an illegal topic name with a ValueError where Kafka's client throws this
        java = INVALID_TOPIC if isinstance(error, ValueError) and "Topic name" in str(error) else java_exception(error)
        self.events.emit("producer_send_error", topic=self.args.topic, key=key, value=value,
                         exception=f"class {java}", message=error_text(error))

    def run(self) -> None:
        self.events.emit("startup_complete")
        throttler = Throttler(self.args.throughput, self.stop)
        i = 0
        while (self.args.max_messages < 0 or i < self.args.max_messages) and not self.stop.is_set():
            if self.events.broken.is_set():
                break
            self.send(self.key(), self.value(i))
            i += 1
            throttler.wait(i)

    def close(self, started: float) -> None:
        """Flush and close, then the summary Kafka's shutdown hook prints."""
        self.producer.close()
        self.events.emit("shutdown_complete")
        elapsed_ms = (time.monotonic() - started) * 1000
        self.events.emit("tool_data", sent=self.sent, acked=self.acked, target_throughput=self.args.throughput,
                         avg_throughput=1000 * self.acked / elapsed_ms if elapsed_ms else 0.0)


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    quiet_client_logs()
    events = JsonEvents()
    try:
        props = load_properties(args.producer_config)
        producer = kafka_client(KafkaProducer, args.bootstrap_server or args.broker_list, props,
                                acks="all" if args.acks == -1 else args.acks, retries=0)
    except (ToolError, ValueError) as e:
        print(error_text(e), file=sys.stderr)
        return 1
    tool = VerifiableProducer(producer, args, events)
    started = time.monotonic()

    def stop(_signum: int, _frame: object) -> None:
        tool.stop.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        tool.run()
    finally:
        tool.close(started)
    events.raise_if_broken()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
