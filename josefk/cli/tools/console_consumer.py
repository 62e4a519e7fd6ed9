"""`josefk console-consumer`: print records to stdout, like kafka-console-consumer.sh."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from typing import Any, BinaryIO

from kafka import KafkaConsumer, TopicPartition

from josefk.cli.tools import common
from josefk.cli.tools.common import ToolError

IDLE_POLL_MS = 60_000
"""One poll's wait without --timeout-ms; SIGTERM and Ctrl-C still end it at once."""


def build_parser() -> argparse.ArgumentParser:
    """Kafka's kafka-console-consumer.sh options."""
    p = common.parser("console-consumer", "Consume records from a topic and print them to standard output.")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT", help="the server(s) to connect to")
    p.add_argument("--topic", required=True, help="the topic to consume from")
    p.add_argument("--group", help="consumer group id (without it, partitions are assigned directly "
                                   "and no offsets are committed)")
    p.add_argument("--from-beginning", action="store_true",
                   help="start with the earliest message rather than the latest")
    p.add_argument("--partition", type=int, help="consume only this partition")
    p.add_argument("--offset", help="earliest, latest or an offset to start from (requires --partition)")
    p.add_argument("--max-messages", type=int, help="exit after this many messages")
    p.add_argument("--timeout-ms", type=int, help="exit if no message is available for this long")
    p.add_argument("--property", action="append", default=[], type=common.key_value, metavar="PROP=VALUE",
                   help="formatter properties: print.key, print.value, print.timestamp, print.partition, "
                        "print.offset, print.headers, key.separator, line.separator, headers.separator, "
                        "null.literal")
    p.add_argument("--consumer-property", action="append", default=[], type=common.key_value,
                   metavar="PROP=VALUE", help="a consumer property (repeatable)")
    p.add_argument("--consumer.config", dest="consumer_config", metavar="FILE", help="consumer properties file")
    p.add_argument("--isolation-level", choices=("read_committed", "read_uncommitted"),
                   default="read_uncommitted", help="whether to read uncommitted transactional records")
    return p


def main(argv: list[str]) -> int:
    p = build_parser()
    args = p.parse_args(argv)
    if args.offset is not None and args.partition is None:
        p.error("The partition is required when offset is specified.")
    if args.offset is not None and args.from_beginning:
        p.error("Options from-beginning and offset cannot be specified together.")
    if args.offset not in (None, "earliest", "latest") and not args.offset.lstrip("-").isdigit():
        p.error(f"The provided offset value '{args.offset}' is incorrect. Valid values are "
                "'earliest', 'latest', or a non-negative long.")
    common.quiet_client_logs()
    props = {**common.load_properties(args.consumer_config), **dict(args.consumer_property)}
    formatter = Formatter({k: common.unescape(v) for k, v in args.property})
    signal.signal(signal.SIGTERM, _interrupt)
    consumer = None
    count = 0
    try:
        consumer = common.kafka_client(
            KafkaConsumer, args.bootstrap_server, props, group_id=args.group,
            enable_auto_commit=args.group is not None, isolation_level=args.isolation_level,
            auto_offset_reset="earliest" if args.from_beginning else "latest")
        deadline = time.monotonic() + args.timeout_ms / 1000 if args.timeout_ms else None
        _start(consumer, args, deadline)
        out = sys.stdout.buffer
        last = time.monotonic()
        while args.max_messages is None or count < args.max_messages:
            batch = consumer.poll(timeout_ms=_poll_ms(args.timeout_ms, last), max_records=(args.max_messages - count)
                                  if args.max_messages else None)
            records = [r for part in batch.values() for r in part]
            if records:
                last = time.monotonic()
                for record in records:
                    formatter.write(record, out)
                    count += 1
                out.flush()
            elif args.timeout_ms and (time.monotonic() - last) * 1000 >= args.timeout_ms:
                break
        return 0
    except KeyboardInterrupt:
        return 0
    except BrokenPipeError:
        return 0
    except Exception as e:  # noqa: BLE001 - report the cause in one line like Kafka's tools
        return common.fail("ERROR Error processing message, terminating consumer process: ", e)
    finally:
        print(f"Processed a total of {count} messages", file=sys.stderr)
        if consumer is not None:
            try:
                # KafkaConsumer.close()'s default 30 s, as Kafka's console consumer: the last
                # offsets are committed here, and a shorter bound lost them on a loaded machine
                consumer.close(autocommit=args.group is not None, timeout_ms=30_000)
            except Exception:  # noqa: BLE001 - closing must not mask the real outcome
                pass


def _poll_ms(timeout_ms: int | None, last: float) -> int:
    """How long one poll may wait: what is left of --timeout-ms since the last record, or
    IDLE_POLL_MS without it. Kafka's console consumer polls for all of --timeout-ms (for ever
    without it), and short polls lose records here: kafka-python 3.0.12's coordinator keeps
    no track of a SyncGroup still in flight when poll() returns after a rejoin it started for
    new metadata (need_rejoin() is already False once the leader has assigned), so that
    member never takes its partitions, and a loaded machine made the answer come late."""
    if not timeout_ms:
        return IDLE_POLL_MS
    return max(1, int(timeout_ms - (time.monotonic() - last) * 1000))


def _interrupt(*_: object) -> None:
    """SIGTERM ends consumption like Ctrl-C, so the record count is still reported."""
    raise KeyboardInterrupt


def _start(consumer: Any, args: argparse.Namespace, deadline: float | None) -> None:
    """Subscribe with --group, else assign partitions directly so no group coordinator is needed."""
    if args.group and args.partition is None:
        consumer.subscribe([args.topic])
        return
    partitions = consumer.partitions_for_topic(args.topic)
    while not partitions:  # topic may be auto-created or created later; wait like Kafka does
        if deadline is not None and time.monotonic() >= deadline:
            raise ToolError(f"Topic {args.topic} not present in metadata after {args.timeout_ms} ms.")
        time.sleep(0.2)
        partitions = consumer.partitions_for_topic(args.topic)
    if args.partition is not None:
        if args.partition not in partitions:
            raise ToolError(f"Partition {args.partition} of topic {args.topic} does not exist "
                            f"(the topic has {len(partitions)} partitions)")
        partitions = {args.partition}
    tps = [TopicPartition(args.topic, p) for p in sorted(partitions)]
    consumer.assign(tps)
    if args.offset in (None, "latest") and not args.from_beginning:
        if args.group is None or args.offset == "latest":
            consumer.seek_to_end(*tps)
    elif args.offset in (None, "earliest"):
        consumer.seek_to_beginning(*tps)
    else:
        offset = int(args.offset)
        if offset < 0:  # Kafka allows a negative offset meaning "this many from the end"
            end = consumer.end_offsets(tps)[tps[0]]
            offset = max(0, end + offset)
        consumer.seek(tps[0], offset)


class Formatter:
    """Kafka's DefaultMessageFormatter: optional timestamp, partition, offset, headers and key, then value."""

    def __init__(self, props: dict[str, str]) -> None:
        def flag(name: str, default: bool = False) -> bool:
            return props.get(name, str(default)).lower() == "true"

        self.fields = [f for f in ("timestamp", "partition", "offset", "headers", "key")
                       if flag(f"print.{f}")]
        self.print_value = flag("print.value", True)
        self.key_sep = props.get("key.separator", "\t").encode()
        self.line_sep = props.get("line.separator", "\n").encode()
        self.headers_sep = props.get("headers.separator", ",").encode()
        self.headers_key_sep = props.get("headers.key.separator", ":").encode()
        self.null = props.get("null.literal", "null").encode()

    def _field(self, name: str, record: Any) -> bytes:
        if name == "timestamp":
            if record.timestamp is None or record.timestamp < 0:
                return b"NO_TIMESTAMP"
            kind = "LogAppendTime" if record.timestamp_type == 1 else "CreateTime"
            return f"{kind}:{record.timestamp}".encode()
        if name == "partition":
            return f"Partition:{record.partition}".encode()
        if name == "offset":
            return f"Offset:{record.offset}".encode()
        if name == "headers":
            if not record.headers:
                return b"NO_HEADERS"
            return self.headers_sep.join(k.encode() + self.headers_key_sep + (self.null if v is None else v)
                                         for k, v in record.headers)
        return self.null if record.key is None else record.key

    def write(self, record: Any, out: BinaryIO) -> None:
        parts = [self._field(f, record) for f in self.fields]
        if self.print_value:
            parts.append(self.null if record.value is None else record.value)
        out.write(self.key_sep.join(parts) + self.line_sep)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
