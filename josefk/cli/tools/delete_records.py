"""`josefk delete-records`: Kafka's kafka-delete-records.sh (DeleteRecords from an offset JSON file)."""

from __future__ import annotations

import json
from typing import Any

import kafka.errors as Errors
from kafka import TopicPartition

from josefk.cli.tools.common import (
    ToolError,
    admin_client,
    fail,
    java_exception,
    load_properties,
    parser,
    quiet_client_logs,
)


def parse_offsets(text: str) -> dict[TopicPartition, int]:
    """Kafka's offset JSON (`{"partitions": [{"topic", "partition", "offset"}], "version": 1}`);
    a partition listed twice is an error, as in Kafka."""
    try:
        data = json.loads(text)
    except ValueError:
        raise ToolError("The input string is not a valid JSON") from None
    if not isinstance(data, dict):
        raise ToolError("The input string is not a valid JSON")
    if data.get("version", 1) != 1:
        raise ToolError(f"Not supported version field value {data['version']}")
    if "partitions" not in data:
        raise ToolError("Missing partitions field")
    seen: dict[TopicPartition, list[int]] = {}
    try:
        for entry in data["partitions"]:
            tp = TopicPartition(str(entry["topic"]), int(entry["partition"]))
            seen.setdefault(tp, []).append(int(entry["offset"]))
    except (KeyError, TypeError, ValueError) as e:
        raise ToolError(f"Invalid partition entry in the offset json file: {e}") from None
    duplicates = [f"{tp.topic}-{tp.partition}" for tp, offsets in seen.items() if len(offsets) > 1]
    if duplicates:
        raise ToolError(f"Offset json file contains duplicate topic partitions: {','.join(duplicates)}")
    return {tp: offsets[0] for tp, offsets in seen.items()}


def main(argv: list[str]) -> int:
    p = parser("delete-records", "Delete records of the given partitions down to the given offset "
                                 "(kafka-delete-records.sh).")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT")
    p.add_argument("--offset-json-file", required=True, metavar="FILE",
                   help='{"partitions": [{"topic": "foo", "partition": 1, "offset": 1}], "version": 1}')
    p.add_argument("--command-config", metavar="FILE")
    args = p.parse_args(argv)
    quiet_client_logs()
    admin = None
    try:
        try:
            with open(args.offset_json_file, encoding="utf-8") as f:
                offsets = parse_offsets(f.read())
        except OSError as e:
            raise ToolError(f"Cannot read {args.offset_json_file}: {e.strerror}") from None
        admin = admin_client(args.bootstrap_server, load_properties(args.command_config))
        print("Executing records delete operation")
        results = _delete(admin, offsets)
        print("Records delete operation completed:")
        for tp in sorted(results, key=lambda tp: (tp.topic, tp.partition)):
            result = results[tp]
            kind = "error" if isinstance(result, str) else "low_watermark"
            print(f"partition: {tp.topic}-{tp.partition}\t{kind}: {result}")
        # Kafka's tool exits 0 even when partitions failed; josefk's says so in its status.
        return 1 if any(isinstance(r, str) for r in results.values()) else 0
    except Exception as e:  # noqa: BLE001 - every failure becomes one line
        return fail("Error: ", e)
    finally:
        if admin is not None:
            admin.close()


def _delete(admin: Any, offsets: dict[TopicPartition, int]) -> dict[TopicPartition, str | int]:
    """Each partition's low watermark, or its error as Kafka prints it (`<Java exception>: <text>`).

    One request per partition: kafka-python's delete_records raises one error for a whole
    request. An unknown partition fails here without a request, as in Kafka's admin client.
    """
    known = {(t["name"], p["partition_index"]) for t in admin.describe_topics(sorted({tp.topic for tp in offsets}))
             if not t["error_code"] for p in t["partitions"]}
    results: dict[TopicPartition, str | int] = {}
    for tp, offset in offsets.items():
        try:
            if (tp.topic, tp.partition) not in known:
                raise Errors.UnknownTopicOrPartitionError()
            results[tp] = admin.delete_records({tp: offset})[tp]["low_watermark"]
        except Errors.BrokerResponseError as e:
            results[tp] = f"{java_exception(e)}: {e.description}"
    return results
