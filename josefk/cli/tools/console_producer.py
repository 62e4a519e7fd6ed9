"""`josefk console-producer`: send lines from stdin as records, like kafka-console-producer.sh."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kafka import KafkaProducer

from josefk.cli.tools import common
from josefk.cli.tools.common import ToolError

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")


def build_parser() -> argparse.ArgumentParser:
    """Kafka's kafka-console-producer.sh options."""
    p = common.parser("console-producer", "Read lines from standard input and publish them to a topic.")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT", help="the server(s) to connect to")
    p.add_argument("--topic", required=True, help="the topic to produce to")
    p.add_argument("--property", action="append", default=[], type=common.key_value, metavar="PROP=VALUE",
                   help="line reader properties: parse.key, key.separator, parse.headers, headers.delimiter, "
                        "headers.separator, headers.key.separator, null.marker, ignore.error")
    p.add_argument("--producer-property", action="append", default=[], type=common.key_value,
                   metavar="PROP=VALUE", help="a producer property, e.g. linger.ms=5 (repeatable)")
    p.add_argument("--producer.config", dest="producer_config", metavar="FILE", help="producer properties file")
    p.add_argument("--compression-codec", nargs="?", const="gzip", choices=CODECS,
                   help="compression codec (gzip if given without a value)")
    p.add_argument("--sync", action="store_true", help="send each record synchronously")
    p.add_argument("--request-required-acks", default="-1", help="acks for produce requests (default -1)")
    p.add_argument("--batch-size", type=int, help="records to batch in one request")
    p.add_argument("--timeout", type=int, help="linger.ms: how long to wait for a batch to fill")
    p.add_argument("--max-block-ms", type=int, help="how long send() blocks waiting for metadata")
    p.add_argument("--request-timeout-ms", type=int, help="how long to wait for an acknowledgement")
    return p


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    common.quiet_client_logs()
    reader = {k: common.unescape(v) for k, v in args.property}
    props = {**common.load_properties(args.producer_config), **dict(args.producer_property)}
    defaults: dict[str, Any] = {"acks": "all" if args.request_required_acks in ("all", "-1") else
                                int(args.request_required_acks),
                                "max_block_ms": args.max_block_ms or common.DEFAULT_TIMEOUT_MS}
    for name, value in (("batch_size", args.batch_size), ("linger_ms", args.timeout),
                        ("request_timeout_ms", args.request_timeout_ms)):
        if value is not None:
            defaults[name] = value
    if args.compression_codec and args.compression_codec != "none":
        defaults["compression_type"] = args.compression_codec
    producer = None
    try:
        producer = common.kafka_client(KafkaProducer, args.bootstrap_server, props, **defaults)
        return produce(producer, args.topic, reader, args.sync)
    except KeyboardInterrupt:
        return 0
    except Exception as e:  # noqa: BLE001 - report the cause in one line like Kafka's tools
        return common.fail("ERROR ", e)
    finally:
        if producer is not None:
            try:
                producer.close(timeout=common.DEFAULT_TIMEOUT_MS / 1000)
            except Exception:  # noqa: BLE001 - closing must not mask the real outcome
                pass


def produce(producer: Any, topic: str, reader: dict[str, str], sync: bool) -> int:
    """Send one record per stdin line; returns 1 if any record could not be delivered."""
    parse_key = reader.get("parse.key", "false").lower() == "true"
    parse_headers = reader.get("parse.headers", "false").lower() == "true"
    key_sep = reader.get("key.separator", "\t")
    ignore_error = reader.get("ignore.error", "false").lower() == "true"
    null_marker = reader.get("null.marker")
    failures = 0

    def on_error(exc: BaseException) -> None:
        nonlocal failures
        failures += 1
        print(f"ERROR Error when sending message to topic {topic} with error: {common.error_text(exc)}",
              file=sys.stderr)

    for number, raw in enumerate(sys.stdin.buffer, start=1):
        line = raw.rstrip(b"\r\n").decode("utf-8", errors="surrogateescape")
        headers: list[tuple[str, bytes | None]] = []
        key: str | None = None
        if parse_headers:
            delim = reader.get("headers.delimiter", "\t")
            head, found, line = line.partition(delim)
            if not found:
                if not ignore_error:
                    raise ToolError(f"No headers delimiter found on line number {number}: '{head}'")
                line = head
            else:
                headers = _headers(head, reader)
        if parse_key:
            k, found, rest = line.partition(key_sep)
            if found:
                key, line = k, rest
            elif not ignore_error:
                raise ToolError(f"No key separator found on line number {number}: '{line}'")
        value = None if line == null_marker else line.encode("utf-8", errors="surrogateescape")
        key_bytes = None if key is None or key == null_marker else key.encode("utf-8", errors="surrogateescape")
        future = producer.send(topic, value=value, key=key_bytes, headers=headers or None)
        if sync:
            try:
                future.get(timeout=producer.config["request_timeout_ms"] / 1000 + 5)
            except Exception as e:  # noqa: BLE001 - keep going like Kafka's ErrorLoggingCallback
                on_error(e)
        else:
            future.add_errback(on_error)
    producer.flush()
    return 1 if failures else 0


def _headers(text: str, reader: dict[str, str]) -> list[tuple[str, bytes | None]]:
    """Parse `h1:v1,h2:v2` (separators configurable as in Kafka's LineMessageReader)."""
    sep = reader.get("headers.separator", ",")
    key_sep = reader.get("headers.key.separator", ":")
    null_marker = reader.get("null.marker")
    out: list[tuple[str, bytes | None]] = []
    for item in text.split(sep) if text else []:
        k, _, v = item.partition(key_sep)
        out.append((k, None if v == null_marker else v.encode()))
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
