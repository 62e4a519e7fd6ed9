"""`josefk verifiable-consumer`: Kafka's kafka-verifiable-consumer.sh (VerifiableConsumer).

A group member that reports what it does as JSON events, as Kafka's system tests read them:
startup_complete, partitions_assigned / partitions_revoked at each rebalance, records_consumed
for every poll that returned records (record_data for each with --verbose), offsets_committed
after each synchronous commit (unless --enable-autocommit), shutdown_complete once closed. It
stops after --max-messages or on SIGTERM / Ctrl-C, as Kafka's does on its shutdown hook.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Any

from kafka import KafkaConsumer, OffsetAndMetadata
from kafka.consumer.subscription_state import ConsumerRebalanceListener
from kafka.coordinator.assignors.range import RangePartitionAssignor
from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
from kafka.coordinator.assignors.sticky.sticky_assignor import StickyPartitionAssignor

from josefk.cli.tools.common import ToolError, error_text, kafka_client, load_properties, parser, quiet_client_logs
from josefk.cli.tools.events import JsonEvents, partitions
from josefk.cli.tools.verifiable_producer import CONNECTION

ASSIGNORS: dict[str, Any] = {
    "org.apache.kafka.clients.consumer.RangeAssignor": RangePartitionAssignor,
    "org.apache.kafka.clients.consumer.RoundRobinAssignor": RoundRobinPartitionAssignor,
    "org.apache.kafka.clients.consumer.StickyAssignor": StickyPartitionAssignor,
}
POLL_MS = 200  # short polls, so a stop request is seen promptly; Kafka's tool polls until woken up


def build_parser() -> argparse.ArgumentParser:
    p = parser("verifiable-consumer", "This tool consumes messages from a specific topic and emits consumer "
               "events (e.g. group rebalances, received messages, and offsets committed) as JSON objects to "
               "STDOUT (kafka-verifiable-consumer.sh).")
    p.add_argument("--topic", required=True, metavar="TOPIC", help="Consumes messages from this topic.")
    p.add_argument("--group-protocol", default="classic", metavar="GROUP_PROTOCOL",
                   help="Group protocol (must be one of CLASSIC, CONSUMER; josefk speaks CLASSIC, the protocol "
                        "of ZooKeeper-mode clusters) (default: classic)")
    p.add_argument("--group-remote-assignor", metavar="GROUP_REMOTE_ASSIGNOR",
                   help="Group remote assignor; only used if the group protocol is CONSUMER")
    p.add_argument("--group-id", required=True, metavar="GROUP_ID",
                   help="The groupId shared among members of the consumer group")
    p.add_argument("--group-instance-id", metavar="GROUP_INSTANCE_ID",
                   help="A unique identifier of the consumer instance")
    p.add_argument("--max-messages", type=int, default=-1, metavar="MAX-MESSAGES",
                   help="Consume this many messages. If -1 (the default), the consumer will consume until the "
                        "process is killed externally (default: -1)")
    p.add_argument("--session-timeout", type=int, default=30000, metavar="TIMEOUT_MS",
                   help="Set the consumer's session timeout (default: 30000)")
    p.add_argument("--verbose", action="store_true", help="Enable to log individual consumed records "
                                                          "(default: false)")
    p.add_argument("--enable-autocommit", action="store_true",
                   help="Enable offset auto-commit on consumer (default: false)")
    p.add_argument("--reset-policy", default="earliest", metavar="RESETPOLICY",
                   help="Set reset policy (must be either 'earliest', 'latest', or 'none' (default: earliest)")
    p.add_argument("--assignment-strategy", default="org.apache.kafka.clients.consumer.RangeAssignor",
                   metavar="ASSIGNMENTSTRATEGY",
                   help="Set assignment strategy (e.g. org.apache.kafka.clients.consumer.RoundRobinAssignor); "
                        "only used if the group protocol is CLASSIC (default: "
                        "org.apache.kafka.clients.consumer.RangeAssignor)")
    p.add_argument("--consumer.config", dest="consumer_config", metavar="CONFIG_FILE",
                   help="Consumer config properties file (config options shared with command line parameters "
                        "will be overridden).")
    connection = p.add_argument_group("Connection Group", "Group of arguments for connection to brokers")
    servers = connection.add_mutually_exclusive_group(required=True)
    servers.add_argument("--bootstrap-server", metavar=CONNECTION,
                         help="REQUIRED unless --broker-list(deprecated) is specified. The server(s) to connect "
                              "to. Comma-separated list of Kafka brokers in the form HOST1:PORT1,HOST2:PORT2,...")
    servers.add_argument("--broker-list", metavar=CONNECTION,
                         help="DEPRECATED, use --bootstrap-server instead; ignored if --bootstrap-server is "
                              "specified. Comma-separated list of Kafka brokers in the form HOST1:PORT1,...")
    return p


def check(args: argparse.Namespace) -> None:
    if args.group_protocol.upper() != "CLASSIC":
        if args.group_protocol.upper() == "CONSUMER":
            raise ToolError("josefk's verifiable-consumer speaks the CLASSIC group protocol only (KIP-848's "
                            "CONSUMER protocol needs a KRaft cluster)")
        raise ToolError(f"Invalid value {args.group_protocol} for configuration group.protocol: String must be one "
                        "of: classic, consumer")
    if args.assignment_strategy not in ASSIGNORS:
        raise ToolError(f"Unknown assignment strategy {args.assignment_strategy}; josefk knows "
                        + ", ".join(ASSIGNORS))
    if args.reset_policy not in ("earliest", "latest", "none"):
        raise ToolError(f"Invalid value {args.reset_policy} for configuration auto.offset.reset: Invalid value "
                        f"{args.reset_policy} for configuration auto.offset.reset")


class Listener(ConsumerRebalanceListener):
    """Rebalances as events; an empty revocation (a first join) prints nothing, as in Kafka."""

    def __init__(self, events: JsonEvents) -> None:
        self.events = events

    def on_partitions_revoked(self, revoked: Any) -> None:
        if revoked:
            self.events.emit("partitions_revoked", partitions=partitions(revoked))

    def on_partitions_assigned(self, assigned: Any) -> None:
        self.events.emit("partitions_assigned", partitions=partitions(assigned))


class VerifiableConsumer:
    def __init__(self, consumer: Any, args: argparse.Namespace, events: JsonEvents) -> None:
        self.consumer = consumer
        self.args = args
        self.events = events
        self.consumed = 0
        self.stop = threading.Event()

    def finished(self) -> bool:
        return self.args.max_messages >= 0 and self.consumed >= self.args.max_messages

    def on_records(self, batch: dict[Any, list[Any]]) -> dict[Any, OffsetAndMetadata]:
        """Kafka's onRecordsReceived: a summary a partition, up to --max-messages; the offsets to commit."""
        offsets: dict[Any, OffsetAndMetadata] = {}
        summaries = []
        for tp, records in batch.items():
            if self.args.max_messages >= 0:
                records = records[: self.args.max_messages - self.consumed]
            if not records:
                continue
            offsets[tp] = OffsetAndMetadata(records[-1].offset + 1, "", -1)
            summaries.append({"topic": tp.topic, "partition": tp.partition, "count": len(records),
                              "minOffset": records[0].offset, "maxOffset": records[-1].offset})
            if self.args.verbose:
                for r in records:
                    self.events.emit("record_data", key=_text(r.key), value=_text(r.value), topic=r.topic,
                                     partition=r.partition, offset=r.offset)
            self.consumed += len(records)
            if self.finished():
                break
        self.events.emit("records_consumed", count=sum(len(r) for r in batch.values()), partitions=summaries)
        return offsets

    def commit(self, offsets: dict[Any, OffsetAndMetadata]) -> None:
        committed = [{"topic": tp.topic, "partition": tp.partition, "offset": o.offset} for tp, o in offsets.items()]
        try:
            self.consumer.commit(offsets)
        except Exception as e:  # noqa: BLE001 - a failed commit is an event, as in Kafka's tool
            self.events.emit("offsets_committed", offsets=committed, error=error_text(e), success=False)
            return
        self.events.emit("offsets_committed", offsets=committed, success=True)

    def run(self) -> None:
        self.events.emit("startup_complete")
        try:
            # kafka-python 3.0.12 can hang in a rebalance that follows its first join at once: if a poll
            # times out during that second join (200 ms polls, a loaded machine), it never applies the
            # assignment, and the member holds no partition. Such a rebalance comes when the member
            # joined before it knew the topic's partitions: a topic created meanwhile, or a join faster
            # than the metadata refresh after subscribe(), the only one kafka-python notes partitions
            # from. So wait for the topic (where Kafka's tool joins with an empty assignment and
            # rebalances once it appears), then subscribe and ask for metadata (topics() always asks).
            while self.args.topic not in self.consumer.topics():
                if self.stop.wait(POLL_MS / 1000):
                    return
            self.consumer.subscribe([self.args.topic], listener=Listener(self.events))
            self.consumer.topics()
            while not self.finished() and not self.stop.is_set() and not self.events.broken.is_set():
                batch = self.consumer.poll(timeout_ms=POLL_MS)
                if not batch:
                    continue
                offsets = self.on_records(batch)
                if not self.args.enable_autocommit:
                    self.commit(offsets)
        except Exception as e:  # noqa: BLE001 - Kafka's tool logs the error and still shuts down cleanly
            print(f"Error during processing, terminating consumer process: {error_text(e)}", file=sys.stderr)
        finally:
            self.consumer.close()
            self.events.emit("shutdown_complete")


def _text(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", "replace")


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    quiet_client_logs()
    events = JsonEvents()
    try:
        check(args)
        props = load_properties(args.consumer_config)
        consumer = kafka_client(
            KafkaConsumer, args.bootstrap_server or args.broker_list, props, group_id=args.group_id,
            group_instance_id=args.group_instance_id, enable_auto_commit=args.enable_autocommit,
            auto_offset_reset=args.reset_policy, session_timeout_ms=args.session_timeout,
            partition_assignment_strategy=(ASSIGNORS[args.assignment_strategy],))
    except (ToolError, ValueError) as e:
        print(error_text(e), file=sys.stderr)
        return 1
    tool = VerifiableConsumer(consumer, args, events)

    def stop(_signum: int, _frame: object) -> None:
        tool.stop.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    tool.run()
    events.raise_if_broken()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
